/** The Deliveries page's line about a bulk resend the sweeper is still marking (shared/domain/callbacks/bulk-resend.ts). */
import type { BulkResendProgress } from '../../domain/callbacks/bulk-resend';
import { formatCount, formatTime } from '../format';

/** A bulk resend the sweeper is still marking: "N of M sent", as of this page's load. */
export function BulkProgress({ progress, zone }: { progress: BulkResendProgress; zone: string }) {
  const asked = progress.kind === 'retry_all' ? '“Retry all failed and needs review”' : 'A replay asked for through the deliveries API';
  return (
    <p class="notice info" role="status" id="bulk-progress">
      {asked} ({formatTime(zone, progress.created_at)}) is still under way: {formatCount(progress.sent)} of {formatCount(progress.total)} sent. Reload the page to see
      how far it got; the rest follows within minutes.
    </p>
  );
}

