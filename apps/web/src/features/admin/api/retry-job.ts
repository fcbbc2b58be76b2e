/** POST /api/admin/jobs/{id}/retry/: queues a failed job again (409 when it is not failed any more). */
import type { TJob } from '@greensen/shared/contracts/jobs';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { JOBS_KEY } from './list-jobs';

export function retryJob(id: string): Promise<TJob> {
  return api.post<TJob>(`admin/jobs/${id}/retry/`);
}

export function useRetryJob() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: retryJob,
    onSettled: () => queryClient.invalidateQueries({ queryKey: JOBS_KEY }),
  });
}
