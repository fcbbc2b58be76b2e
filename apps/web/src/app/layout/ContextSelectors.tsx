/** Hospital switcher and department selector of the header. */
import { Select, type StyleProp } from '@mantine/core';
import { IconBuildingHospital, IconStethoscope } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { switchHospital } from '../../lib/session';
import { useAuthStore } from '../../stores/auth';
import { departmentsOfHospital, useUserStore } from '../../stores/user';

export function HospitalSwitcher({ w = 250 }: { w?: StyleProp<number | string> }) {
  const { t } = useTranslation('shell');
  const hospitals = useUserStore((state) => state.user?.hospitals ?? []);
  const currentHospitalId = useAuthStore((state) => state.currentHospitalId);
  return (
    <Select
      w={w}
      size="sm"
      aria-label={t('hospital.label')}
      placeholder={t('hospital.placeholder')}
      leftSection={<IconBuildingHospital size={16} />}
      data={hospitals.map((hospital) => ({
        value: hospital.id,
        // Code first: when the header is narrow the name is cut, and the code still tells which hospital.
        label: hospital.code ? `${hospital.code} · ${hospital.name}` : hospital.name,
      }))}
      value={currentHospitalId}
      allowDeselect={false}
      onChange={(value) => {
        if (value && value !== currentHospitalId) switchHospital(value);
      }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

export function DepartmentSelector({ w = 200 }: { w?: StyleProp<number | string> }) {
  const { t } = useTranslation('shell');
  const user = useUserStore((state) => state.user);
  const currentDepartmentId = useUserStore((state) => state.currentDepartmentId);
  const setDepartment = useUserStore((state) => state.setCurrentDepartmentId);
  const hospitalId = useAuthStore((state) => state.currentHospitalId);
  const departments = departmentsOfHospital(user, hospitalId);
  return (
    <Select
      w={w}
      size="sm"
      aria-label={t('department.label')}
      placeholder={departments.length ? t('department.placeholder') : t('department.none')}
      disabled={departments.length === 0}
      leftSection={<IconStethoscope size={16} />}
      data={departments.map((department) => ({ value: department.id, label: department.name }))}
      value={currentDepartmentId}
      allowDeselect={false}
      onChange={(value) => setDepartment(value)}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
