/**
 * Runs a queue-triggered function as a Lambda event source mapping does: receive a batch,
 * invoke with an SQS event, delete what succeeded (partial batch responses), leave the rest
 * to reappear after the visibility timeout; the queue's redrive policy moves repeat failures
 * to the dead-letter queue. Up to `maxConcurrency` batches run at once, each receive → invoke →
 * delete loop on its own, as the mapping's pollers do up to its maximum concurrency.
 *
 * Like the mapping's pollers, the loops scale with the queue: one polls an idle queue; a loop
 * that receives messages starts another (up to `maxConcurrency`), and one whose long poll comes
 * back empty stops unless it is the last. Ten loops long-polling an idle queue cost a local
 * stack about a twentieth of a core (its process and the SQS emulator, measured over 20 s), and
 * the tests run a stack or more per file.
 */
import { setMaxListeners } from 'node:events';
import { DeleteMessageBatchCommand, type Message, ReceiveMessageCommand, type SQSClient } from '@aws-sdk/client-sqs';
import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { invoke, type LocalFunction } from './lambda-runtime';

export interface QueuePollerOptions {
  sqs: SQSClient;
  queueUrl: string;
  queueArn: string;
  fn: LocalFunction;
  batchSize: number;
  /** Batches in flight at once (the event source's maximum concurrency). */
  maxConcurrency: number;
  visibilityTimeoutSeconds: number;
  /** Long-poll wait; short so that stop() returns quickly. */
  waitSeconds?: number;
  onError?: (error: unknown) => void;
}

export interface QueuePoller {
  stop(): Promise<void>;
}

export function startQueuePoller(options: QueuePollerOptions): QueuePoller {
  let running = true;
  const abort = new AbortController();
  // Every concurrent receive loop (up to maxConcurrency) listens on this one signal.
  setMaxListeners(0, abort.signal);

  const toRecord = (m: Message): SQSRecord => {
    return {
      messageId: m.MessageId!,
      receiptHandle: m.ReceiptHandle!,
      body: m.Body ?? '',
      attributes: {
        ApproximateReceiveCount: m.Attributes?.ApproximateReceiveCount ?? '1',
        SentTimestamp: m.Attributes?.SentTimestamp ?? String(Date.now()),
        SenderId: m.Attributes?.SenderId ?? 'local',
        ApproximateFirstReceiveTimestamp: m.Attributes?.ApproximateFirstReceiveTimestamp ?? String(Date.now()),
      },
      messageAttributes: Object.fromEntries(
        Object.entries(m.MessageAttributes ?? {}).map(([name, value]) => [
          name,
          { dataType: value.DataType!, stringValue: value.StringValue },
        ]),
      ) as SQSRecord['messageAttributes'],
      md5OfBody: m.MD5OfBody ?? '',
      eventSource: 'aws:sqs',
      eventSourceARN: options.queueArn,
      awsRegion: 'us-east-1',
    };
  };

  /** Loops running, counted as each starts and stops (the set holds their promises, for stop()). */
  let active = 0;
  const loops = new Set<Promise<void>>();
  const startLoop = () => {
    active++;
    const done = loop().finally(() => loops.delete(done));
    loops.add(done);
  };

  const loop = async () => {
    while (running) {
      try {
        const received = await options.sqs.send(
          new ReceiveMessageCommand({
            QueueUrl: options.queueUrl,
            MaxNumberOfMessages: options.batchSize,
            WaitTimeSeconds: options.waitSeconds ?? 1,
            VisibilityTimeout: options.visibilityTimeoutSeconds,
            MessageSystemAttributeNames: ['All'],
            MessageAttributeNames: ['All'],
          }),
          { abortSignal: abort.signal },
        );
        const messages = received.Messages ?? [];
        if (!messages.length) {
          // Nothing for a whole long poll: this loop stops, unless it is the last.
          if (active > 1) break;
          continue;
        }
        if (running && active < options.maxConcurrency) startLoop();
        const records = messages.map(toRecord);
        const event: SQSEvent = { Records: records };
        let failed = new Set(records.map((r) => r.messageId));
        try {
          const response = (await invoke(options.fn, event, 60_000)) as SQSBatchResponse | undefined;
          failed = new Set((response?.batchItemFailures ?? []).map((f) => f.itemIdentifier));
        } catch (error) {
          options.onError?.(error);
        }
        const done = records.filter((r) => !failed.has(r.messageId));
        if (done.length) {
          await options.sqs.send(
            new DeleteMessageBatchCommand({
              QueueUrl: options.queueUrl,
              Entries: done.map((r, i) => ({ Id: String(i), ReceiptHandle: r.receiptHandle })),
            }),
          );
        }
      } catch (error) {
        if (!running) break;
        options.onError?.(error);
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    active--;
  };
  startLoop();

  return {
    async stop() {
      running = false;
      abort.abort();
      // A loop started while others stop is in the set too; none starts once `running` is false.
      while (loops.size) await Promise.all(loops);
    },
  };
}
