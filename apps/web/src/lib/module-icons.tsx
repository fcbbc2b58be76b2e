/** The tabler icon of each module (shared MODULES name them as strings). */
import {
  IconBed,
  IconBuildingHospital,
  IconCalendarEvent,
  IconChartBar,
  IconClipboardList,
  IconHeartRateMonitor,
  IconLayoutDashboard,
  IconMedicalCross,
  IconMessages,
  IconMicroscope,
  IconNurse,
  IconPill,
  IconPuzzle,
  IconReceipt,
  IconStethoscope,
  IconTemplate,
  IconUserCog,
  IconUserHeart,
  IconUsers,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';

type IconComponent = ComponentType<{ size?: number | string; stroke?: number }>;

const ICONS: Record<string, IconComponent> = {
  IconLayoutDashboard,
  IconUsers,
  IconClipboardList,
  IconStethoscope,
  IconMicroscope,
  IconChartBar,
  IconUserHeart,
  IconHeartRateMonitor,
  IconBed,
  IconNurse,
  IconMedicalCross,
  IconReceipt,
  IconBuildingHospital,
  IconPill,
  IconCalendarEvent,
  IconUserCog,
  IconTemplate,
  IconMessages,
};

export function ModuleIcon({ name, size = 20 }: { name: string; size?: number }) {
  const Icon = ICONS[name] ?? IconPuzzle;
  return <Icon size={size} stroke={1.6} />;
}
