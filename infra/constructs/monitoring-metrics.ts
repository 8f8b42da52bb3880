/**
 * Custom metrics the callback sender publishes (namespace HotelIntegration, dimension service),
 * kept apart from the CDK construct so the sender's bundle does not import aws-cdk-lib.
 */
export const DELIVERY_METRICS = {
  delivered: 'DeliveryDelivered',
  retrying: 'DeliveryRetrying',
  failed: 'DeliveryFailed',
  needsReview: 'DeliveryNeedsReview',
} as const;
