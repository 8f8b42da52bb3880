/**
 * The stage's e-mail sender as its functions get it: a grant of `ses:SendEmail` on its verified
 * identity only (the address, or its domain), and only with the sender's address as the message's
 * From. IAM authorizes SendEmail against the identity resource
 * `arn:aws:ses:REGION:ACCOUNT:identity/NAME` ("Actions, resources, and condition keys for Amazon
 * Simple Email Service - SES v2",
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonsimpleemailservicev2.html),
 * and a domain identity would let any address of the domain send: the `ses:FromAddress` condition
 * key ("The 'From' address of a message", "Identity and access management in Amazon SES",
 * https://docs.aws.amazon.com/ses/latest/dg/control-user-access.html) holds it to the sender's
 * (the hotel's name is the From's display name, which the key does not compare).
 */
import { ArnFormat, type Stack } from 'aws-cdk-lib';
import { type IGrantable, PolicyStatement } from 'aws-cdk-lib/aws-iam';

/** The address e-mails to guests are sent from, and the verified SES identity it belongs to. */
export interface EmailSender {
  address: string;
  identity: string;
}

/** Grants a function sending from the stage's sender, and nothing else of SES. */
export function sendGrant(scope: Stack, sender: EmailSender): (grantee: IGrantable) => void {
  const identityArn = scope.formatArn({ service: 'ses', resource: 'identity', resourceName: sender.identity, arnFormat: ArnFormat.SLASH_RESOURCE_NAME });
  return (grantee) =>
    grantee.grantPrincipal.addToPrincipalPolicy(
      new PolicyStatement({ actions: ['ses:SendEmail'], resources: [identityArn], conditions: { StringEquals: { 'ses:FromAddress': sender.address } } }),
    );
}
