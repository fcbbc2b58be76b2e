/** Colour mode switch: system / light / dark. */
import { ActionIcon, Menu, Tooltip } from '@mantine/core';
import { IconCheck, IconDeviceDesktop, IconMoon, IconSun } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { type ColorModePreference, useColorMode } from '../../lib/color-scheme';
import { HEADER_DROPDOWN_Z_INDEX } from '../../lib/toast-layer';

const MODES: { mode: ColorModePreference; Icon: typeof IconSun }[] = [
  { mode: 'system', Icon: IconDeviceDesktop },
  { mode: 'light', Icon: IconSun },
  { mode: 'dark', Icon: IconMoon },
];

export function ColorModeControl() {
  const { t } = useTranslation('shell');
  const [mode, setMode] = useColorMode();
  const Current = MODES.find((item) => item.mode === mode)?.Icon ?? IconDeviceDesktop;
  return (
    <Menu position="bottom-end" withinPortal zIndex={HEADER_DROPDOWN_Z_INDEX}>
      <Menu.Target>
        <Tooltip label={t('colorMode.label')}>
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('colorMode.label')}>
            <Current size={20} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        {MODES.map(({ mode: item, Icon }) => (
          <Menu.Item
            key={item}
            leftSection={<Icon size={16} />}
            rightSection={item === mode ? <IconCheck size={14} /> : null}
            onClick={() => setMode(item)}
          >
            {t(`colorMode.${item}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
