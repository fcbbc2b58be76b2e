/**
 * Which patients the care pages show: a department and, within it, one ward or all of them (emergency visits
 * have no ward). A nurse chooses among her own departments; a charge nurse, a head doctor or an administrator of
 * care among every care department of the hospital. The choice starts on the user's current department.
 */
import { receivesPatients } from '@greensen/shared/domain/admissions';
import { Group, Select } from '@mantine/core';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useDepartments } from '../../../lib/clinical/api/list-departments';
import { usePermissions } from '../../../lib/permissions';
import { useAuthStore } from '../../../stores/auth';
import { useUserStore } from '../../../stores/user';
import { type Scope, useWards } from '../api/care-file';

export function useDepartmentChoices() {
  const { groups } = usePermissions();
  const user = useUserStore((state) => state.user);
  const currentDepartment = useUserStore((state) => state.currentDepartmentId);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const departments = useDepartments();
  const wide = groups.includes('queue_manager') || groups.includes('head_doctor');
  const own = new Set((user?.departments ?? []).filter((d) => d.hospital === hospitalId).map((d) => d.id));
  const choices = (departments.data?.results ?? []).filter(
    (d) => d.is_active && receivesPatients(d.kind) && (wide || own.has(d.id)),
  );
  const preferred =
    choices.find((d) => d.id === currentDepartment)?.id ??
    choices.find((d) => own.has(d.id))?.id ??
    choices[0]?.id ??
    null;
  return { choices, preferred, loading: departments.isPending };
}

export function ScopePicker({ scope, onChange }: { scope: Scope; onChange: (scope: Scope) => void }) {
  const { t } = useTranslation('care');
  const { choices, preferred } = useDepartmentChoices();
  const wards = useWards(scope.department);

  useEffect(() => {
    if (scope.department === null && preferred) onChange({ department: preferred, ward: null });
  }, [scope.department, preferred, onChange]);

  return (
    <Group gap="xs" wrap="wrap" data-no-print>
      <Select
        size="md"
        w={240}
        label={t('scope.department')}
        data={choices.map((d) => ({ value: d.id, label: d.name }))}
        value={scope.department}
        onChange={(department) => department && onChange({ department, ward: null })}
        allowDeselect={false}
        data-testid="scope-department"
      />
      <Select
        size="md"
        w={240}
        label={t('scope.ward')}
        data={[
          { value: '', label: t('scope.allWards') },
          ...(wards.data?.results ?? [])
            .filter((w) => w.is_active)
            .map((w) => ({ value: w.id, label: w.name })),
        ]}
        value={scope.ward ?? ''}
        onChange={(ward) => onChange({ ...scope, ward: ward || null })}
        allowDeselect={false}
        data-testid="scope-ward"
      />
    </Group>
  );
}
