import { Duration, RemovalPolicy } from 'aws-cdk-lib';
import { AnyPrincipal, Effect, type IRole, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { SEALED_SECRET_KINDS, SEALING_CONTEXT_KEYS } from '../../shared/secrets/sealer';

/**
 * Only requests whose encryption context is exactly {client_id, kind}, kind one of ours. The
 * ForAllValues test alone would also pass a request with no context at all, hence the Null and
 * StringEquals tests (https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html#conditions-kms-encryption-context-keys).
 */
export const SIGNING_SECRET_CONTEXT_CONDITIONS = {
  'ForAllValues:StringEquals': { 'kms:EncryptionContextKeys': [...SEALING_CONTEXT_KEYS] },
  Null: { 'kms:EncryptionContext:client_id': 'false' },
  StringEquals: { 'kms:EncryptionContext:kind': [...SEALED_SECRET_KINDS] },
};

/**
 * The customer-managed KMS key that seals callback and webhook signing secrets on the table
 * (shared/secrets/kms-sealer.ts), under an encryption context naming the client and the kind
 * (docs/behaviour.md "Payment safety in deployed stages"). Key material rotates every year; earlier
 * material stays to decrypt what it sealed, so nothing is re-encrypted. Retained with the
 * table: the sealed secrets on it are useless without it.
 */
export class SigningSecretsKey extends Construct {
  readonly key: Key;

  constructor(scope: Construct, id: string, props: { stage: string }) {
    super(scope, id);
    this.key = new Key(this, 'Key', {
      description: 'Seals callback and webhook signing secrets (encryption context: client_id, kind)',
      alias: `alias/hotel-integration/${props.stage}/signing-secrets`,
      enableKeyRotation: true,
      rotationPeriod: Duration.days(365),
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** Lets `role` seal secrets (the dashboard's Integrations page): Encrypt only, with a well-formed context. */
  allowToSeal(role: IRole): void {
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['kms:Encrypt'], resources: [this.key.keyArn], conditions: SIGNING_SECRET_CONTEXT_CONDITIONS }),
    );
  }

  /**
   * Makes `role` the one principal that can decrypt with the key: its policy allows kms:Decrypt
   * with a well-formed context, and the key policy denies Decrypt (and ReEncryptFrom, which
   * would move a secret to a key someone else can decrypt) to every other principal of the
   * account, administrators included, whatever their IAM policies allow.
   */
  allowOnlyToOpen(role: IRole): void {
    role.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['kms:Decrypt'], resources: [this.key.keyArn], conditions: SIGNING_SECRET_CONTEXT_CONDITIONS }),
    );
    this.key.addToResourcePolicy(
      new PolicyStatement({
        sid: 'OnlyTheCallbackSenderOpensSigningSecrets',
        effect: Effect.DENY,
        principals: [new AnyPrincipal()],
        actions: ['kms:Decrypt', 'kms:ReEncryptFrom'],
        resources: ['*'],
        conditions: { ArnNotEquals: { 'aws:PrincipalArn': role.roleArn } },
      }),
    );
  }
}
