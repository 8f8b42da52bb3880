import { Duration } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { Alias } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { DELIVERY_METRICS, PAYMENT_METRICS } from './monitoring-metrics';


export interface MonitoringProps {
  stage: string;
  restApi: RestApi;
  authorizer: IFunction;
  sender: IFunction;
  sweeper: IFunction;
  routeFunctions: readonly IFunction[];
  queue: IQueue;
  deadLetterQueue: IQueue;
  /** Where alarm notifications go (an SNS e-mail subscription), if anywhere. */
  alarmEmail?: string;
}

/** Alarms on what needs an operator, an SNS topic for them, and one dashboard. */
export class Monitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Record<string, Alarm>;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: `Hotel integration API ${props.stage} alarms`,
      enforceSSL: true,
      masterKey: Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
    });
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const fiveMinutes = Duration.minutes(5);
    const serviceMetric = (metricName: string) =>
      new Metric({
        namespace: 'HotelIntegration',
        metricName,
        dimensionsMap: { service: 'hotel-integration-api' },
        statistic: 'Sum',
        period: fiveMinutes,
      });

    const alarm = (name: string, metric: IMetric, threshold: number, description: string) => {
      const created = new Alarm(this, name, {
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(new SnsAction(this.topic));
      return created;
    };

    this.alarms = {
      deadLetterQueue: alarm(
        'DeadLetterQueueNotEmpty',
        props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ period: Duration.minutes(1), statistic: 'Maximum' }),
        1,
        'Callback messages reached the dead-letter queue: their deliveries are marked failed; see npm run ops -- deliveries list --status failed',
      ),
      api5xxRate: alarm(
        'Api5xxRate',
        props.restApi.metricServerError({ period: fiveMinutes, statistic: 'Average' }),
        0.01,
        'More than 1% of API requests answered 5xx in 5 minutes; query the logs by request_id',
      ),
      authorizerErrors: alarm(
        'AuthorizerErrors',
        props.authorizer.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
        1,
        'The API key authorizer failed (callers got 503 SERVICE_UNAVAILABLE)',
      ),
      callbackFailures: alarm(
        'CallbackFailures',
        serviceMetric(DELIVERY_METRICS.failed),
        1,
        'Callback or webhook deliveries failed after all automatic retries; retry them with npm run ops -- deliveries retry',
      ),
      callbacksNeedReview: alarm(
        'CallbacksNeedReview',
        serviceMetric(DELIVERY_METRICS.needsReview),
        1,
        'A receiver rejected a callback or webhook (4xx): needs manual review',
      ),
      checkoutNotFound: alarm(
        'PaymentCheckoutNotFound',
        serviceMetric(PAYMENT_METRICS.checkoutNotFound),
        1,
        "The provider could not find the checkout of a processing order on the account its attempt was made on; the order stays processing. Check the order's attempts and the client's provider account (log: 'the provider cannot find the checkout')",
      ),
      amountMismatch: alarm(
        'PaymentAmountMismatch',
        serviceMetric(PAYMENT_METRICS.amountMismatch),
        1,
        'A provider reported a payment whose amount or currency differs from its order; the order was marked failed. Investigate before refunding',
      ),
      senderErrors: alarm(
        'CallbackSenderErrors',
        props.sender.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
        1,
        'The callback sender function failed',
      ),
      sweeperErrors: alarm(
        'DeliverySweeperErrors',
        props.sweeper.metricErrors({ period: fiveMinutes, statistic: 'Sum' }),
        1,
        'The delivery sweeper failed: due deliveries may not be queued',
      ),
    };

    this.dashboard = new Dashboard(this, 'Dashboard', { dashboardName: `hotel-integration-${props.stage}` });
    this.dashboard.addWidgets(
      new GraphWidget({
        title: 'API requests and errors',
        left: [props.restApi.metricCount({ period: Duration.minutes(1) })],
        right: [props.restApi.metricClientError({ period: Duration.minutes(1) }), props.restApi.metricServerError({ period: Duration.minutes(1) })],
        width: 12,
      }),
      new GraphWidget({
        title: 'API latency',
        left: ['p50', 'p99'].map((statistic) => props.restApi.metricLatency({ period: Duration.minutes(1), statistic })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Function errors',
        left: [props.authorizer, props.sender, props.sweeper, ...props.routeFunctions].map((fn) =>
          fn.metricErrors({ period: Duration.minutes(5), statistic: 'Sum', label: fn.node.id }),
        ),
        width: 12,
      }),
      new GraphWidget({
        title: 'Callback queue',
        left: [
          props.queue.metricApproximateNumberOfMessagesVisible({ label: 'queue' }),
          props.deadLetterQueue.metricApproximateNumberOfMessagesVisible({ label: 'dead-letter queue' }),
        ],
        right: [props.queue.metricApproximateAgeOfOldestMessage({ label: 'oldest message age' })],
        width: 12,
      }),
      new GraphWidget({
        title: 'Deliveries',
        left: Object.values(DELIVERY_METRICS).map((name) => serviceMetric(name).with({ label: name })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Payment settlement problems',
        left: Object.values(PAYMENT_METRICS).map((name) => serviceMetric(name).with({ label: name })),
        width: 12,
      }),
    );
  }
}
