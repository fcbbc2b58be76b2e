import { Anchor } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation } from 'react-router';
import { languageFromPath, localizePath } from '../../../lib/language';

/** A link to an unprefixed app path in the current language. */
export function AppLink({ to, children, size = 'sm' }: { to: string; children: ReactNode; size?: string }) {
  const { pathname } = useLocation();
  return (
    <Anchor component={Link} to={localizePath(to, languageFromPath(pathname))} size={size}>
      {children}
    </Anchor>
  );
}
