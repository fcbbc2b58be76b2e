/**
 * The nurse dashboard's `handoffs` tab (issue 20): the SBAR handoffs to give (the nurse's patients without one for
 * this shift, the form pre-filled with what changed), those to acknowledge (written for her at the shift change),
 * and for a charge nurse every unacknowledged one of her departments. Refreshed with the dashboard.
 */
import { SegmentedControl, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HandoffBox } from '../../../lib/clinical/api/care';
import { HandoffList } from '../../../lib/clinical/components/care/Handoffs';
import { usePermissions } from '../../../lib/permissions';

const PAGE_SIZE = 20;

export default function NurseHandoffsPanel() {
  const { t } = useTranslation('care');
  const { groups } = usePermissions();
  const charge = groups.includes('queue_manager');
  const boxes: HandoffBox[] = charge
    ? ['to_give', 'to_acknowledge', 'unacknowledged']
    : ['to_give', 'to_acknowledge'];
  const [box, setBox] = useState<HandoffBox>(
    charge && !groups.includes('nurse') ? 'unacknowledged' : 'to_give',
  );
  const [page, setPage] = useState(1);
  return (
    <Stack gap="sm" p="sm" data-testid="nurse-handoffs">
      <SegmentedControl
        size="md"
        value={box}
        onChange={(value) => {
          setBox(value as HandoffBox);
          setPage(1);
        }}
        data={boxes.map((b) => ({ value: b, label: t(`handoffs.boxes.${b}`) }))}
      />
      <HandoffList
        filters={{ box, page, pageSize: PAGE_SIZE }}
        onPageChange={setPage}
        emptyText={t(`handoffs.empty.${box}`)}
      />
    </Stack>
  );
}
