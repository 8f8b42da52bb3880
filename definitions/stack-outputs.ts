/** Output keys the operator CLI reads from the deployed stack. */
export const stackOutputKeys = {
  apiUrl: 'ApiUrl',
  tableName: 'TableName',
  callbackQueueUrl: 'CallbackQueueUrl',
  callbackDlqUrl: 'CallbackDlqUrl',
  secretsKeyArn: 'SecretsKeyArn',
  sandboxPayments: 'SandboxPayments',
  usagePlanStandardId: 'UsagePlanStandardId',
  usagePlanPremiumId: 'UsagePlanPremiumId',
  userPoolId: 'UserPoolId',
  userPoolClientId: 'UserPoolClientId',
} as const;
