/**
 * The signed-in shell's chunk (the layout route of every signed-in page), apart from the pages' loaders: the
 * shell itself imports those (idle preloading), so that keeping this one there made a cycle
 * (AppLayout → PlatformEffects → page-loaders → AppLayout).
 */
import { type PageLoader, withRestStyles } from './page-loaders';

export const loadShell: PageLoader = withRestStyles(() =>
  import('./layout/AppLayout').then((module) => ({ default: module.AppLayout })),
);
