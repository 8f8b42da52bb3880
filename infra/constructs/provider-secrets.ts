import { ArnFormat, Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { ProviderSecret } from '../../definitions/route-access';

/** The environment variable through which a function learns each parameter's name. */
export const PROVIDER_SECRET_ENV: Record<ProviderSecret, string> = {
  stripeSecretKey: 'STRIPE_SECRET_KEY_PARAMETER',
  stripeWebhookSecret: 'STRIPE_WEBHOOK_SECRET_PARAMETER',
};

export function defaultProviderSecretNames(stage: string): Record<ProviderSecret, string> {
  return {
    stripeSecretKey: `/hotel-integration/${stage}/stripe/secret-key`,
    stripeWebhookSecret: `/hotel-integration/${stage}/stripe/webhook-secret`,
  };
}

export interface ProviderSecretsProps {
  /** SSM parameter names; created by operators as SecureString (CloudFormation cannot create those). */
  parameterNames: Record<ProviderSecret, string>;
  /**
   * The customer managed KMS key encrypting the parameters. Not needed with the default
   * AWS managed key aws/ssm: its key policy already lets SSM decrypt for any principal of the
   * account that may call ssm:GetParameter.
   */
  kmsKeyArn?: string;
}

const PARAMETER_NAME = /^\/?[A-Za-z0-9_.\-/]{1,1000}$/;

/**
 * The payment providers' platform secrets, referenced by name only: the stack never sees their
 * values. Functions that need one get the parameter's name in their environment and
 * ssm:GetParameter on that one parameter (plus kms:Decrypt via SSM for a customer managed key).
 */
export class ProviderSecrets extends Construct {
  readonly parameterNames: Record<ProviderSecret, string>;
  readonly kmsKeyArn?: string;

  constructor(scope: Construct, id: string, props: ProviderSecretsProps) {
    super(scope, id);
    for (const [secret, name] of Object.entries(props.parameterNames)) {
      if (!PARAMETER_NAME.test(name) || /^\/?(aws|ssm)/i.test(name) || name.includes('//')) {
        throw new Error(`Invalid SSM parameter name for ${secret}: "${name}"`);
      }
    }
    if (props.kmsKeyArn !== undefined && !/^arn:aws[a-z-]*:kms:[a-z0-9-]+:\d{12}:key\/[A-Za-z0-9-]+$/.test(props.kmsKeyArn)) {
      throw new Error(`Invalid KMS key ARN "${props.kmsKeyArn}": use the key's full ARN (arn:aws:kms:REGION:ACCOUNT:key/ID)`);
    }
    this.parameterNames = props.parameterNames;
    this.kmsKeyArn = props.kmsKeyArn;
  }

  /** arn:…:ssm:REGION:ACCOUNT:parameter/NAME (a hierarchical name's leading slash is not repeated). */
  parameterArn(secret: ProviderSecret): string {
    return Stack.of(this).formatArn({
      service: 'ssm',
      resource: 'parameter',
      resourceName: this.parameterNames[secret].replace(/^\//, ''),
      arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
    });
  }

  /** The environment naming the parameters a function may read. */
  environment(secrets: readonly ProviderSecret[]): Record<string, string> {
    return Object.fromEntries(secrets.map((secret) => [PROVIDER_SECRET_ENV[secret], this.parameterNames[secret]]));
  }

  /** ssm:GetParameter on exactly these parameters (Powertools reads one at a time, decrypted). */
  grantRead(grantee: IGrantable, secrets: readonly ProviderSecret[]): void {
    if (secrets.length === 0) return;
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['ssm:GetParameter'], resources: secrets.map((secret) => this.parameterArn(secret)) }),
    );
    if (this.kmsKeyArn) {
      const stack = Stack.of(this);
      grantee.grantPrincipal.addToPrincipalPolicy(
        new PolicyStatement({
          actions: ['kms:Decrypt'],
          resources: [this.kmsKeyArn],
          conditions: { StringEquals: { 'kms:ViaService': `ssm.${stack.region}.amazonaws.com` } },
        }),
      );
    }
  }
}
