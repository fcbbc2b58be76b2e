/**
 * Opening a patient's care file: straight to /care/{plan} when the plan exists; otherwise the plan is opened
 * first (POST /api/care/plans/ answers the existing one or a new one) and the page follows.
 */
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useLocalizedPath } from '../../../lib/use-localized-path';
import { useOpenPlan } from '../api/care-file';

export function useOpenCareFile() {
  const navigate = useNavigate();
  const to = useLocalizedPath();
  const openPlan = useOpenPlan();
  return useCallback(
    (target: { plan: string | null; hospitalization: string | null; admission: string | null }) => {
      if (target.plan) {
        navigate(to(`/care/${target.plan}`));
        return;
      }
      if (openPlan.isPending) return;
      openPlan.mutate(
        target.hospitalization
          ? { hospitalization: target.hospitalization }
          : { admission: target.admission },
        { onSuccess: (plan) => navigate(to(`/care/${plan.id}`)) },
      );
    },
    [navigate, to, openPlan],
  );
}
