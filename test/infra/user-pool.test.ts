/** The operators' user pool and the dashboard's app client (infra/constructs/user-pool.ts). */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { OperatorUserPool } from '../../infra/constructs/user-pool';
import { userPoolDefinition } from '../../infra/user-pool-definition';

describe('operator user pool', () => {
  const app = new App();
  const stack = new Stack(app, 'Pool');
  new OperatorUserPool(stack, 'Operators', { stage: 'prod' });
  const template = Template.fromStack(stack);

  it('signs in by e-mail, has no self sign-up, optional TOTP, the client and role attributes', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      UserPoolName: 'hotel-integration-prod-operators',
      UsernameAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: {
        PasswordPolicy: Match.objectLike({ MinimumLength: userPoolDefinition.passwordPolicy.minLength, TemporaryPasswordValidityDays: 3 }),
      },
      Schema: Match.arrayWith([
        Match.objectLike({ Name: 'client_id', AttributeDataType: 'String', Mutable: true }),
        Match.objectLike({ Name: 'role', AttributeDataType: 'String', Mutable: true }),
      ]),
      UserPoolTier: 'PLUS',
      UserPoolAddOns: { AdvancedSecurityMode: 'ENFORCED' },
      DeletionProtection: 'ACTIVE',
    });
  });

  it('is retained when the stack goes', () => {
    template.hasResource('AWS::Cognito::UserPool', { DeletionPolicy: 'Retain', UpdateReplacePolicy: 'Retain' });
  });

  it('has one app client without a secret: password sign-in, refresh, revocation, no attribute writes of client or role', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      ExplicitAuthFlows: ['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH'],
      EnableTokenRevocation: true,
      PreventUserExistenceErrors: 'ENABLED',
      AccessTokenValidity: 15,
      IdTokenValidity: 15,
      RefreshTokenValidity: 24 * 60,
      WriteAttributes: ['locale'],
    });
  });

  it('passes cdk-nag, acknowledging only optional MFA on the pool', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});
