import { ArnFormat, Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type { RestApi } from 'aws-cdk-lib/aws-apigateway';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
  Unit,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { PolicyStatement, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import type { IFunction } from 'aws-cdk-lib/aws-lambda';
import { FilterPattern, type ILogGroup, MetricFilter } from 'aws-cdk-lib/aws-logs';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { tableDefinition } from '../../definitions/table';
import { API_METRICS, DELIVERY_METRICS, MONEY_ROUTING_METRICS, PAYMENT_METRICS, SWEEPER_METRICS } from '../../definitions/metrics';

const NAMESPACE = 'HotelIntegration';
/** The sweeper runs every minute: a delivery due this long ago and still waiting is late. */
export const BACKLOG_ALARM_SECONDS = 15 * 60;


export interface MonitoringProps {
  stage: string;
  restApi: RestApi;
  /** The stage's JSON access log: API Gateway's own 429 answers are counted from it. */
  accessLogs: ILogGroup;
  /** The single table; its indexes are those of definitions/table.ts. */
  table: ITable;
  authorizer: IFunction;
  sender: IFunction;
  sweeper: IFunction;
  routeFunctions: readonly IFunction[];
  queue: IQueue;
  deadLetterQueue: IQueue;
  /** Where alarm notifications go (an SNS e-mail subscription), if anywhere. */
  alarmEmail?: string;
}

interface AlarmOptions {
  /** Consecutive breaching periods that raise the alarm. @default 1 */
  evaluationPeriods?: number;
  /** @default NOT_BREACHING: most metrics here have data only when something happened */
  treatMissingData?: TreatMissingData;
}

/**
 * Alarms on what needs an operator, an SNS topic for them, and one dashboard. Every alarm is
 * named `hotel-integration-<stage>-<id>`: the topic and its key let only those publish.
 */
export class Monitoring extends Construct {
  readonly topic: Topic;
  /** Customer managed: CloudWatch cannot publish to a topic under the AWS managed aws/sns key. */
  readonly topicKey: Key;
  readonly alarms: Record<string, Alarm>;
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const alarmNamePrefix = `hotel-integration-${props.stage}-`;
    // CloudWatch publishes as the cloudwatch.amazonaws.com principal on behalf of an alarm,
    // which it names in aws:SourceArn: only this account's alarms of this stage may.
    const cloudWatchAlarmsOfTheStage = {
      principals: [new ServicePrincipal('cloudwatch.amazonaws.com')],
      conditions: {
        StringEquals: { 'aws:SourceAccount': stack.account },
        ArnLike: {
          'aws:SourceArn': stack.formatArn({
            service: 'cloudwatch',
            resource: 'alarm',
            resourceName: `${alarmNamePrefix}*`,
            arnFormat: ArnFormat.COLON_RESOURCE_NAME,
          }),
        },
      },
    };

    // The AWS managed key alias/aws/sns does not let CloudWatch use it, and its policy cannot be
    // changed: alarms could not publish at all. CloudWatch needs kms:GenerateDataKey* and
    // kms:Decrypt on a customer managed key, through the key policy
    // (https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html#compatibility-with-aws-services,
    // https://repost.aws/knowledge-center/cloudwatch-configure-alarm-sns).
    this.topicKey = new Key(this, 'AlarmTopicKey', {
      description: `Encrypts the ${props.stage} alarm topic; the stage's CloudWatch alarms use it to publish`,
      alias: `alias/hotel-integration/${props.stage}/alarm-topic`,
      enableKeyRotation: true,
      rotationPeriod: Duration.days(365),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.topicKey.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsOfTheStageEncryptForTheTopic',
        actions: ['kms:Decrypt', 'kms:GenerateDataKey*'],
        resources: ['*'],
        ...cloudWatchAlarmsOfTheStage,
      }),
    );
    this.topic = new Topic(this, 'AlarmTopic', {
      displayName: `Hotel integration API ${props.stage} alarms`,
      enforceSSL: true,
      masterKey: this.topicKey,
    });
    // enforceSSL gives the topic a policy of its own, which replaces SNS's default one (that let
    // the account's alarms publish): CloudWatch needs this Allow
    // (https://repost.aws/knowledge-center/cloudwatch-receive-sns-for-alarm-trigger).
    this.topic.addToResourcePolicy(
      new PolicyStatement({
        sid: 'CloudWatchAlarmsOfTheStagePublish',
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        ...cloudWatchAlarmsOfTheStage,
      }),
    );
    if (props.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.alarmEmail));

    const oneMinute = Duration.minutes(1);
    const fiveMinutes = Duration.minutes(5);
    const serviceMetric = (metricName: string) =>
      new Metric({
        namespace: NAMESPACE,
        metricName,
        dimensionsMap: { service: 'hotel-integration-api' },
        statistic: 'Sum',
        period: fiveMinutes,
      });

    const alarm = (name: string, metric: IMetric, threshold: number, description: string, options: AlarmOptions = {}) => {
      const created = new Alarm(this, name, {
        alarmName: `${alarmNamePrefix}${name}`,
        alarmDescription: description,
        metric,
        threshold,
        evaluationPeriods: options.evaluationPeriods ?? 1,
        comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
        treatMissingData: options.treatMissingData ?? TreatMissingData.NOT_BREACHING,
      });
      created.addAlarmAction(new SnsAction(this.topic));
      return created;
    };

    // API Gateway has no metric of its own for 429s (4XXError mixes them with every other 4xx):
    // they are counted from the access log, whose fields are all strings (infra/constructs/api.ts).
    new MetricFilter(this, 'ApiTooManyRequestsFilter', {
      logGroup: props.accessLogs,
      filterPattern: FilterPattern.stringValue('$.status', '=', '429'),
      metricNamespace: NAMESPACE,
      metricName: API_METRICS.tooManyRequests,
      metricValue: '1',
      unit: Unit.COUNT,
    });
    const tooManyRequests = new Metric({ namespace: NAMESPACE, metricName: API_METRICS.tooManyRequests, statistic: 'Sum', period: fiveMinutes });

    // Read/WriteThrottleEvents count every throttled read or write of the table or of an index,
    // whatever the cause, on-demand tables included (a hot key range, the on-demand maximum,
    // account limits); the cause-specific metrics break them down
    // (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/TroubleshootingThrottling-cloudwatch.html).
    // ThrottledRequests would need one metric per operation.
    const throttleEvents = [undefined, ...tableDefinition.globalSecondaryIndexes.map((index) => index.indexName)].flatMap((index) =>
      (['Read', 'Write'] as const).map(
        (kind) =>
          new Metric({
            namespace: 'AWS/DynamoDB',
            metricName: `${kind}ThrottleEvents`,
            dimensionsMap: { TableName: props.table.tableName, ...(index ? { GlobalSecondaryIndexName: index } : {}) },
            statistic: 'Sum',
            period: fiveMinutes,
            label: `${kind.toLowerCase()}s, ${index ?? 'table'}`,
          }),
      ),
    );
    const allThrottleEvents = new MathExpression({
      expression: `SUM([${throttleEvents.map((_, i) => `t${i}`).join(', ')}])`,
      usingMetrics: Object.fromEntries(throttleEvents.map((metric, i) => [`t${i}`, metric])),
      period: fiveMinutes,
      label: 'DynamoDB throttle events, table and indexes',
    });

    const oldestDueAge = serviceMetric(SWEEPER_METRICS.oldestDueAgeSeconds).with({ statistic: 'Maximum', period: oneMinute });
    const allFunctions = [...props.routeFunctions, props.authorizer, props.sender, props.sweeper];

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
      // Any change at all: where a hotel's money goes changes rarely, and a hijacked admin session
      // would change it first.
      providerAccountChanged: alarm(
        'ProviderAccountChanged',
        serviceMetric(MONEY_ROUTING_METRICS.providerAccountChanged),
        1,
        "An admin chose another payment provider or Stripe account for a client on the dashboard: that client's payments now go there. Check with the hotel that it was meant: the Audit page (or the log line 'the payment provider account changed') names the operator, the old and the new account",
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
      bulkResendNotContinued: alarm(
        'BulkResendNotContinued',
        serviceMetric(SWEEPER_METRICS.bulkResendNotContinued),
        1,
        "The delivery sweeper could not carry on a bulk resend (a receiver's replay, or an operator's \"Retry all failed\"): the deliveries it has not marked yet wait unsent. The sweeper's log says why ('bulk resends could not be continued'); once fixed, the next run goes on where it stopped",
      ),
      apiTooManyRequests: alarm(
        'ApiTooManyRequests',
        tooManyRequests,
        100,
        "API Gateway answered 429 to 100 or more requests in each of two 5-minute periods. Find who in the access log (Logs Insights: filter status = \"429\" | stats count() by clientId, errorType): one client is at its plan's limit (ask the integrator to back off, or ops clients set-plan); many clients mean the stage's throttle or the account's API Gateway quota is too low",
        { evaluationPeriods: 2 },
      ),
      deliveryBacklog: alarm(
        'DeliveryBacklog',
        oldestDueAge,
        BACKLOG_ALARM_SECONDS,
        'A callback delivery has been due for 15 minutes or more, 3 minutes in a row, or the sweeper published no backlog figure for 3 minutes (it runs every minute). Check DeliverySweeperErrors and the sweeper log group, that the SweepDeliveriesSchedule rule is enabled, the callback queue depth and the sender (errors, throttles). Deliveries wait on the table: none is lost',
        // The sweeper publishes on every run, 0 when nothing is due: no data means it is not running.
        { evaluationPeriods: 3, treatMissingData: TreatMissingData.BREACHING },
      ),
      dynamoDbThrottling: alarm(
        'DynamoDbThrottling',
        allThrottleEvents,
        10,
        'DynamoDB throttled 10 or more reads or writes in 5 minutes; requests still throttled after the SDK retries answered 503 SERVICE_UNAVAILABLE. The dashboard shows which table or index, reads or writes. Read/WriteKeyRangeThroughputThrottleEvents (AWS/DynamoDB) mean a hot key: find and spread it; otherwise traffic outgrew on-demand capacity: raise the table\'s warm throughput',
      ),
      ...Object.fromEntries(
        allFunctions.map((fn) => [
          `${fn.node.id}Throttles`,
          alarm(`${fn.node.id}Throttles`, fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum' }), 1, throttlesDescription(fn, props)),
        ]),
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
      new GraphWidget({
        title: 'Delivery backlog: age of the oldest due delivery (s)',
        left: [oldestDueAge.with({ label: SWEEPER_METRICS.oldestDueAgeSeconds })],
        leftAnnotations: [{ value: BACKLOG_ALARM_SECONDS, label: 'DeliveryBacklog alarm' }],
        width: 12,
      }),
      new GraphWidget({
        title: 'Throttling: API 429 answers and DynamoDB throttle events',
        left: [tooManyRequests.with({ period: oneMinute, label: '429 answers' })],
        right: throttleEvents.map((metric) => metric.with({ period: oneMinute })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Function throttles',
        left: allFunctions.map((fn) => fn.metricThrottles({ period: fiveMinutes, statistic: 'Sum', label: fn.node.id })),
        width: 12,
      }),
    );
  }
}

/** What a throttled invocation of `fn` did to callers, and what to do. */
function throttlesDescription(fn: IFunction, props: MonitoringProps): string {
  const effect =
    fn === props.sender
      ? 'The SQS event source retries those messages later; repeated throttling moves them to the dead-letter queue'
      : fn === props.sweeper
        ? 'Due deliveries wait for a later run'
        : 'Callers got a 5xx';
  return (
    `Lambda throttled ${fn.node.id}. ${effect}. No function has reserved concurrency: the account's concurrency is used up. ` +
    "Check ConcurrentExecutions (AWS/Lambda) for what uses it, and raise the account's Lambda concurrent executions quota (Service Quotas)"
  );
}
