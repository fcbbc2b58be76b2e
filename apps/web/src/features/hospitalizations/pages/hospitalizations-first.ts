/** The hospitalizations page as it opens on its bed board (issue 38): the queries the app starts for it by path. */
import { departmentsQueryOptions } from '../../../lib/clinical/api/list-departments';
import type { FirstQueries } from '../../../lib/first-data';
import { type BoardFilters, bedBoardQueryOptions, censusQueryOptions } from '../api/board';

/** The board's ward and department filters as it opens: every bed of the hospital. */
export const BED_BOARD_FIRST_FILTERS = { ward: null, department: null } as const satisfies BoardFilters;

export const hospitalizationsFirstQueries: FirstQueries = ({ hospitalId }) => [
  bedBoardQueryOptions(hospitalId, BED_BOARD_FIRST_FILTERS),
  censusQueryOptions(hospitalId),
  departmentsQueryOptions(hospitalId),
];
