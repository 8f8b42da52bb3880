import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  ClientAttributes,
  FeaturePlan,
  Mfa,
  StandardThreatProtectionMode,
  StringAttribute,
  UserPool,
  type UserPoolClient,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import { operatorAttributes, userPoolDefinition as def } from '../user-pool-definition';

/**
 * The stage's operator user pool and the dashboard's app client, from infra/user-pool-definition.ts.
 * Plus feature plan: threat protection in enforced mode blocks risky and brute-forced sign-ins
 * (Cognito's own lockout applies on every plan). Retained: operators' accounts outlive a stack.
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
      generateSecret: false,
      authFlows: { userPassword: c.authFlows.userPassword },
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
    Validations.of(this.userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason: 'MFA is optional for operators by decision (issue #13); each may enrol TOTP, and threat protection is enforced on every sign-in.',
    });
  }
}
