import { Tabs } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TestProviders } from '../test/render';
import { WrappingTabsList } from './tabs';

describe('WrappingTabsList', () => {
  it('wraps the tabs onto another line rather than cutting them off', () => {
    render(
      <TestProviders>
        <Tabs defaultValue="a">
          <WrappingTabsList px="sm">
            <Tabs.Tab value="a">Séjours</Tabs.Tab>
            <Tabs.Tab value="b">Documents</Tabs.Tab>
          </WrappingTabsList>
        </Tabs>
      </TestProviders>,
    );
    const list = screen.getByRole('tablist');
    expect(list.style.flexWrap).toBe('wrap');
    expect(list.style.overflowX).not.toBe('auto');
    expect(screen.getAllByRole('tab')).toHaveLength(2);
  });
});
