/**
 * E-mail to guests in the template (docs/behaviour.md "Guest booking and the reception QR code"): with
 * `senderEmail`, exactly the functions that send (the route table's `access.sendsEmail`, and the
 * sweeper, which retries failed sends) may call `ses:SendEmail`, and only on the sender's verified
 * identity; without it no function may, and none is told a sender.
 *
 * IAM authorizes SES v2 SendEmail against the sending identity's ARN,
 * `arn:${Partition}:ses:${Region}:${Account}:identity/${IdentityName}` (an address or a domain):
 * "Actions, resources, and condition keys for Amazon Simple Email Service - SES v2",
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsimpleemailservicev2.html,
 * and "Identity and access management in Amazon SES",
 * https://docs.aws.amazon.com/ses/latest/dg/control-user-access.html. Every grant carries the
 * `ses:FromAddress` condition (that page: "ses:FromAddress — The 'From' address of a message",
 * compared with StringEquals in its example policies), so a domain identity lets the functions
 * send from the stage's sender address only (docs/reliability.md "Only the guest holds a guest's booking").
 */
import { type CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { describe, expect, it } from 'vitest';
import { routesOfStage } from '../../definitions/routes';
import { HotelIntegrationStack } from '../../infra/stack';
import type { HotelIntegrationStackProps } from '../../infra/stage-settings';
import { testApp } from '../support/cdk-app';
import { logicalIdOf, mergedTemplate } from '../support/stage-templates';

// Raw CloudFormation JSON.
type CfnJson = any;

function synth(props: Partial<HotelIntegrationStackProps>) {
  const app = testApp();
  const stack = new HotelIntegrationStack(app, 'HotelIntegration-email', { stage: 'email', sandboxPayments: true, ...props });
  const resources = (mergedTemplate(stack).toJSON() as { Resources: Record<string, { Type: string; Properties: CfnJson }> }).Resources;
  const idOf = (construct: IConstruct) => logicalIdOf(construct);
  const functions = new Map([...[...stack.routeFunctions.values()].map((fn) => [fn.node.id, fn] as const), ['SweepDeliveriesFunction', stack.deliverySweeperFunction] as const]);
  functions.set('AuthorizerFunction', stack.authorizerFunction);
  functions.set('SendCallbackFunction', stack.callbackSenderFunction);
  const statementsOf = (fn: IConstruct & { role?: IConstruct }) =>
    Object.values(resources)
      .filter((r) => r.Type === 'AWS::IAM::Policy' && r.Properties.Roles.some((role: CfnJson) => role.Ref === idOf(fn.role!)))
      .flatMap((p) => p.Properties.PolicyDocument.Statement as CfnJson[]);
  /** The statements naming an ses: action, by function construct id. */
  const sesStatements = new Map(
    [...functions].map(([id, fn]) => [id, statementsOf(fn).filter((s) => [s.Action].flat().some((a: string) => a.startsWith('ses:')))] as const),
  );
  const environmentOf = (fn: IConstruct) => (resources[idOf(fn)]!.Properties.Environment?.Variables ?? {}) as Record<string, unknown>;
  return { stack, resources, functions, sesStatements, environmentOf };
}

/** The identity ARN as the stack writes it: partition, region and account of the stack's own. */
const identityArn = (name: string) => ({
  'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ses:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, `:identity/${name}`]],
});

/** The one From address a grant allows. */
const fromSender = (address: string) => ({ StringEquals: { 'ses:FromAddress': address } });

/** The functions the route table says send e-mail, by construct id, and the sweeper. */
const SENDING = [
  ...new Set(
    routesOfStage({ sandboxPayments: true })
      .filter((r) => r.access.sendsEmail)
      .map((r) => `${r.function ?? r.id}Function`),
  ),
  'SweepDeliveriesFunction',
].sort();
/** The dashboard's pages behind a session: they say whether the stage sends e-mail. */
const DASHBOARD = new Set(
  routesOfStage({ sandboxPayments: true })
    .filter((r) => r.auth.kind === 'dashboard')
    .map((r) => `${r.function ?? r.id}Function`),
);

describe('a stage with -c senderEmail', () => {
  const { functions, sesStatements, environmentOf } = synth({ senderEmail: 'bookings@hotel.example' });

  it('lets exactly the sending functions call ses:SendEmail, on the sender identity only', () => {
    // A booking confirmed, changed or cancelled, or a refund, e-mails the guest from the function that did it.
    expect(SENDING).toEqual([
      'CancelServiceBookingFunction',
      'DashboardBookingChangesFunction',
      'DashboardBookingRefundsFunction',
      'DashboardPaymentsFunction',
      'GuestBookingFunction',
      'GuestCancelFunction',
      'RefundPaymentOrderFunction',
      'StripeWebhookFunction',
      'SweepDeliveriesFunction',
      'VerifyPaymentOrderFunction',
    ]);
    for (const [id, statements] of sesStatements) {
      if (SENDING.includes(id)) {
        expect(statements, id).toEqual([{ Effect: 'Allow', Action: 'ses:SendEmail', Resource: identityArn('bookings@hotel.example'), Condition: fromSender('bookings@hotel.example') }]);
      } else {
        expect(statements, id).toEqual([]);
      }
    }
  });

  it("tells the sending functions and the dashboard's pages the sender, and no other function", () => {
    expect(DASHBOARD.has('DashboardIntegrationsFunction')).toBe(true);
    for (const [id, fn] of functions) {
      const told = environmentOf(fn).SENDER_EMAIL;
      if (SENDING.includes(id) || DASHBOARD.has(id)) expect(told, id).toBe('bookings@hotel.example');
      else expect(told, id).toBeUndefined();
      expect(environmentOf(fn).SES_ENDPOINT, id).toBeUndefined();
    }
  });
});

describe('a stage whose sender domain is the verified identity', () => {
  it('grants ses:SendEmail on the domain identity', () => {
    const { sesStatements } = synth({ senderEmail: 'bookings@hotel.example', senderIdentity: 'hotel.example' });
    for (const [id, statements] of sesStatements) {
      if (SENDING.includes(id)) expect(statements, id).toEqual([{ Effect: 'Allow', Action: 'ses:SendEmail', Resource: identityArn('hotel.example'), Condition: fromSender('bookings@hotel.example') }]);
    }
  });

  it('refuses an identity that is not the sender or its domain, and a sender that is no address', () => {
    expect(() => synth({ senderEmail: 'bookings@hotel.example', senderIdentity: 'other.example' })).toThrow(/senderIdentity must be senderEmail itself or its domain hotel\.example/);
    expect(() => synth({ senderEmail: 'Hotel <bookings@hotel.example>' })).toThrow(/senderEmail must be an e-mail address/);
    expect(() => synth({ senderIdentity: 'hotel.example' })).toThrow(/senderIdentity needs senderEmail/);
  });
});

describe('a stage without a sender', () => {
  it('lets no function call SES and tells none a sender', () => {
    const { functions, sesStatements, environmentOf } = synth({});
    for (const [id, statements] of sesStatements) expect(statements, id).toEqual([]);
    for (const [id, fn] of functions) expect(environmentOf(fn).SENDER_EMAIL, id).toBeUndefined();
  });
});
