/**
 * The operators in the user pool: created (by the operator CLI), listed by client with their
 * role and whether a second factor is compulsory, and removed. Cognito cannot filter on custom
 * attributes, so a client's operators are read by paging through the pool.
 */
import type { AttributeType } from '@aws-sdk/client-cognito-identity-provider';
import { operatorAttributes, type OperatorRole, userPoolDefinition } from '../../definitions/user-pool';
import { userPool } from '../config';
import { cognito } from './cognito-pool';

export interface OperatorRecord {
  email: string;
  clientId: string;
  role: string;
  status: string;
  enabled: boolean;
  createdAt?: string;
  /** In the mfa-required group: a second factor is compulsory. */
  mfaRequired: boolean;
}

export class OperatorExistsError extends Error {
  override name = 'OperatorExistsError';
}

export class OperatorNotFoundError extends Error {
  override name = 'OperatorNotFoundError';
}

const custom = (name: string) => `custom:${name}`;
const attribute = (attributes: AttributeType[] | undefined, name: string) => attributes?.find((a) => a.Name === name)?.Value ?? '';

export async function createOperatorUser(input: {
  email: string;
  clientId: string;
  role: OperatorRole;
  password: string;
  permanent: boolean;
  mfaRequired: boolean;
}): Promise<void> {
  const { userPoolId } = userPool();
  try {
    const { api, sdk } = await cognito();
    await api.send(
      new sdk.AdminCreateUserCommand({
        UserPoolId: userPoolId,
        Username: input.email,
        // The CLI hands the password over itself: no invitation e-mail.
        MessageAction: 'SUPPRESS',
        TemporaryPassword: input.permanent ? undefined : input.password,
        UserAttributes: [
          { Name: 'email', Value: input.email },
          { Name: 'email_verified', Value: 'true' },
          { Name: custom(operatorAttributes.clientId.name), Value: input.clientId },
          { Name: custom(operatorAttributes.role.name), Value: input.role },
        ],
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'UsernameExistsException') throw new OperatorExistsError(`an operator ${input.email} exists`);
    throw error;
  }
  if (input.permanent) {
    const { api, sdk } = await cognito();
    await api.send(
      new sdk.AdminSetUserPasswordCommand({ UserPoolId: userPoolId, Username: input.email, Password: input.password, Permanent: true }),
    );
  }
  if (input.mfaRequired) {
    const { api, sdk } = await cognito();
    await api.send(new sdk.AdminAddUserToGroupCommand({ UserPoolId: userPoolId, Username: input.email, GroupName: userPoolDefinition.mfaRequiredGroup }));
  }
}

/** The usernames (not e-mails) of the mfa-required group's members; none in a pool deployed before the group. */
async function mfaRequiredUsernames(): Promise<Set<string>> {
  const { userPoolId } = userPool();
  const usernames = new Set<string>();
  let token: string | undefined;
  do {
    const { api, sdk } = await cognito();
    const input = { UserPoolId: userPoolId, GroupName: userPoolDefinition.mfaRequiredGroup, NextToken: token, Limit: 60 };
    const page = await api.send(new sdk.ListUsersInGroupCommand(input)).catch((error: unknown) => {
      if ((error as Error).name === 'ResourceNotFoundException') return { Users: [], NextToken: undefined };
      throw error;
    });
    for (const user of page.Users ?? []) if (user.Username) usernames.add(user.Username);
    token = page.NextToken;
  } while (token);
  return usernames;
}

/** Every operator of a client. Cognito cannot filter on custom attributes: pages through the pool. */
export async function listOperatorUsers(clientId: string): Promise<OperatorRecord[]> {
  const { userPoolId } = userPool();
  const operators: OperatorRecord[] = [];
  const mfaRequired = await mfaRequiredUsernames();
  let token: string | undefined;
  do {
    const { api, sdk } = await cognito();
    const page = await api.send(new sdk.ListUsersCommand({ UserPoolId: userPoolId, PaginationToken: token, Limit: 60 }));
    for (const user of page.Users ?? []) {
      if (attribute(user.Attributes, custom(operatorAttributes.clientId.name)) !== clientId) continue;
      operators.push({
        email: attribute(user.Attributes, 'email'),
        clientId,
        role: attribute(user.Attributes, custom(operatorAttributes.role.name)),
        status: user.UserStatus ?? 'UNKNOWN',
        enabled: user.Enabled ?? true,
        createdAt: user.UserCreateDate?.toISOString(),
        mfaRequired: mfaRequired.has(user.Username ?? ''),
      });
    }
    token = page.PaginationToken;
  } while (token);
  return operators.sort((a, b) => a.email.localeCompare(b.email));
}

export async function deleteOperatorUser(email: string): Promise<void> {
  try {
    const { api, sdk } = await cognito();
    await api.send(new sdk.AdminDeleteUserCommand({ UserPoolId: userPool().userPoolId, Username: email }));
  } catch (error) {
    if ((error as Error).name === 'UserNotFoundException') throw new OperatorNotFoundError(`no operator ${email}`);
    throw error;
  }
}
