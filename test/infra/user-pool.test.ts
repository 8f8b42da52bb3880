/**
 * The operators' user pool and the dashboard's app client (infra/constructs/user-pool.ts), and
 * the cookies a deployed stage's dashboard sets (shared/dashboard/cookies.ts).
 */
import { Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { OperatorUserPool } from '../../infra/constructs/user-pool';
import { userPoolDefinition } from '../../definitions/user-pool';
import { COOKIE, cookieScope, scopedCookieOptions, serializeCookie } from '../../shared/dashboard/cookies';
import { testApp } from '../support/cdk-app';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

describe('operator user pool', () => {
  const app = testApp();
  const stack = new Stack(app, 'Pool');
  const pool = new OperatorUserPool(stack, 'Operators', { stage: 'prod' });
  pool.allowSessions(new Role(stack, 'SignInRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') }));
  const template = mergedTemplate(stack);

  it('signs in by e-mail, has no self sign-up, optional TOTP (no SMS), the client and role attributes', () => {
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

  it('has the mfa-required group, whose members the sign-in makes set TOTP up', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolGroup', 1);
    template.hasResourceProperties('AWS::Cognito::UserPoolGroup', { GroupName: 'mfa-required', UserPoolId: Match.anyValue() });
  });

  it('has one app client with a secret: exactly the password and refresh flows, user context data, revocation, no attribute writes of client or role', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 1);
    const [client] = Object.values(template.findResources('AWS::Cognito::UserPoolClient'));
    // Exactly the flows the dashboard calls: no SRP, no custom auth, no admin or user-auth flows.
    expect(client!.Properties.ExplicitAuthFlows).toEqual(['ALLOW_USER_PASSWORD_AUTH', 'ALLOW_REFRESH_TOKEN_AUTH']);
    expect(client!.Properties.ExplicitAuthFlows).toEqual(userPoolDefinition.appClient.explicitAuthFlows);
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: true,
      EnablePropagateAdditionalUserContextData: true,
      EnableTokenRevocation: true,
      PreventUserExistenceErrors: 'ENABLED',
      AccessTokenValidity: 15,
      IdTokenValidity: 15,
      RefreshTokenValidity: 24 * 60,
      WriteAttributes: ['locale'],
    });
  });

  it("lets a session function read the client's secret, on this pool only", () => {
    template.hasResourceProperties('AWS::IAM::Policy', {
      PolicyDocument: {
        Statement: [{ Action: 'cognito-idp:DescribeUserPoolClient', Effect: 'Allow', Resource: { 'Fn::GetAtt': [Match.stringLikeRegexp('^OperatorsPool'), 'Arn'] } }],
      },
    });
  });

  it('passes cdk-nag, acknowledging only optional MFA on the pool', () => {
    const report = new AwsSolutionsChecks().validateScope(app);
    expect(report.violations.map((v) => `${v.ruleName}: ${v.violatingResources.map((r) => r.constructPath).join(', ')}`)).toEqual([]);
  });
});

describe("a deployed stage's dashboard cookies", () => {
  it('are __Host- cookies: Secure, Path=/ (which reaches /{stage}/dashboard), no Domain; the local stack keeps its names', () => {
    const deployed = cookieScope('/prod', false);
    for (const name of Object.values(COOKIE)) {
      const cookie = serializeCookie(name, 'v', scopedCookieOptions(deployed, 60));
      expect(cookie).toBe(`__Host-${name}=v; Path=/; HttpOnly; SameSite=Strict; Max-Age=60; Secure`);
    }
    expect(Object.values(COOKIE).map((name) => serializeCookie(name, 'v', scopedCookieOptions(cookieScope('', true))).split('=')[0])).toEqual(
      Object.values(COOKIE),
    );
    expect(Object.values(COOKIE)).toEqual(expect.arrayContaining(['dashboard_id', 'dashboard_access', 'dashboard_refresh', 'dashboard_notice', 'dashboard_mfa_setup']));
  });
});
