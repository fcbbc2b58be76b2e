/**
 * The tab row of a page with many tabs (the patient record): the tabs wrap onto a second line on a narrow
 * screen instead of running off its edge, so that every tab stays visible (issue 37: cut at 820 px).
 */
import { Tabs, type TabsListProps } from '@mantine/core';

export function WrappingTabsList({ style, ...props }: TabsListProps) {
  return <Tabs.List {...props} style={[{ flexWrap: 'wrap', rowGap: 4 }, style]} />;
}
