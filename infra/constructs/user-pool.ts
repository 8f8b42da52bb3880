import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import {
  AccountRecovery,
  CfnUserPoolGroup,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  StandardThreatProtectionMode,
  StringAttribute,
  UserPool,
  type UserPoolClient,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { operatorAttributes, userPoolDefinition as def } from '../../definitions/user-pool';

/**
 * The stage's operator user pool and the dashboard's app client, from definitions/user-pool.ts.
 * Plus feature plan: threat protection in enforced mode blocks risky and brute-forced sign-ins
 * (Cognito's own lockout applies on every plan), judged on the operator's own address, which the
 * dashboard passes as user context data. Retained: operators' accounts outlive a stack.
 *
 * AWS docs, AWS::Cognito::UserPool: MfaConfiguration OPTIONAL lets each user turn MFA on, and
 * Cognito then asks every sign-in of that user for it; EnabledMfas SOFTWARE_TOKEN_MFA alone
 * (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-cognito-userpool.html#cfn-cognito-userpool-mfaconfiguration,
 * #cfn-cognito-userpool-enabledmfas).
 */
export class OperatorUserPool extends Construct {
  readonly userPool: UserPool;
  readonly client: UserPoolClient;

  constructor(scope: Construct, id: string, props: { stage: string }) {
    super(scope, id);
    const { passwordPolicy: p, appClient: c } = def;
    this.userPool = new UserPool(this, 'Pool', {
      userPoolName: `hotel-integration-${props.stage}-${def.nameSuffix}`,
      selfSignUpEnabled: def.selfSignUp,
      signInAliases: { email: true, username: false },
      signInCaseSensitive: false,
      autoVerify: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      customAttributes: {
        [operatorAttributes.clientId.name]: new StringAttribute({ minLen: 1, maxLen: operatorAttributes.clientId.maxLength, mutable: true }),
        [operatorAttributes.role.name]: new StringAttribute({ minLen: 1, maxLen: operatorAttributes.role.maxLength, mutable: true }),
      },
      // MFA compulsory for everyone would be Mfa.REQUIRED; it is compulsory per operator instead
      // (the mfa-required group, checked by the dashboard's sign-in).
      mfa: Mfa.OPTIONAL,
      mfaSecondFactor: { otp: true, sms: false },
      passwordPolicy: {
        minLength: p.minLength,
        requireLowercase: p.requireLowercase,
        requireUppercase: p.requireUppercase,
        requireDigits: p.requireDigits,
        requireSymbols: p.requireSymbols,
        tempPasswordValidity: Duration.days(p.temporaryPasswordValidityDays),
      },
      accountRecovery: AccountRecovery.EMAIL_ONLY,
      featurePlan: FeaturePlan.PLUS,
      standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.client = this.userPool.addClient('DashboardClient', {
      userPoolClientName: `hotel-integration-${props.stage}-${c.nameSuffix}`,
      // AWS docs, AWS::Cognito::UserPoolClient: ExplicitAuthFlows lists every flow the client
      // allows, ALLOW_REFRESH_TOKEN_AUTH included (CDK adds it); nothing but the dashboard's two
      // (https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-cognito-userpoolclient.html#cfn-cognito-userpoolclient-explicitauthflows).
      // EnablePropagateAdditionalUserContextData: Cognito accepts the IpAddress of UserContextData
      // on InitiateAuth and RespondToAuthChallenge only with it, and it needs a client secret
      // (#cfn-cognito-userpoolclient-enablepropagateadditionalusercontextdata).
      generateSecret: c.generateSecret,
      enablePropagateAdditionalUserContextData: c.propagateUserContextData,
      authFlows: { userPassword: c.explicitAuthFlows.includes('ALLOW_USER_PASSWORD_AUTH') },
      accessTokenValidity: Duration.minutes(c.accessTokenValidityMinutes),
      idTokenValidity: Duration.minutes(c.idTokenValidityMinutes),
      refreshTokenValidity: Duration.days(c.refreshTokenValidityDays),
      enableTokenRevocation: c.enableTokenRevocation,
      preventUserExistenceErrors: c.preventUserExistenceErrors,
      readAttributes: new ClientAttributes()
        .withStandardAttributes({ email: true, emailVerified: true })
        .withCustomAttributes(operatorAttributes.clientId.name, operatorAttributes.role.name),
      // An operator must never set their own client or role (UpdateUserAttributes with their
      // access token): the client writes only a harmless standard attribute.
      writeAttributes: new ClientAttributes().withStandardAttributes({ locale: true }),
    });
    new CfnUserPoolGroup(this, 'MfaRequiredGroup', {
      userPoolId: this.userPool.userPoolId,
      groupName: def.mfaRequiredGroup,
      description: 'Operators who must sign in with a second factor (ops operators create --mfa required)',
    });
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is optional in the pool by decision (issue #13): each operator may turn TOTP on, the mfa-required group makes it compulsory per operator (checked at sign-in), and threat protection is enforced on every sign-in.',
    });
  }

  /**
   * What a function that signs operators in, renews or ends their sessions needs: the client's
   * secret (DescribeUserPoolClient), for the SECRET_HASH of those calls. The calls themselves
   * are unauthenticated Cognito APIs.
   */
  allowSessions(grantee: IGrantable): void {
    this.userPool.grant(grantee, 'cognito-idp:DescribeUserPoolClient');
  }
}
