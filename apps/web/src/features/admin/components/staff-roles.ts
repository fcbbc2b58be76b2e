/** Role codes of the specification's table as the staff screens show them. */
import type { TStaffMember } from '@greensen/shared/contracts/staff';
import { ROLE_CODES, roleLabel } from '@greensen/shared/domain/roles';
import { useDepartments } from '../../../lib/clinical/api/list-departments';

/** Select options: "Infirmier(ère) (NURSE)", in the interface's language. */
export function roleOptions(lang: 'fr' | 'en') {
  return ROLE_CODES.map((value) => ({ value, label: `${roleLabel(value, lang)} (${value})` }));
}

/** A role with its department: "Infirmier(ère) · Urgences". */
export function roleText(role: TStaffMember['roles'][number], lang: 'fr' | 'en'): string {
  const label = roleLabel(role.role_code, lang);
  return role.department ? `${label} · ${role.department.name}` : label;
}

/** A person's roles: "Infirmier(ère) · Urgences, Secrétaire". */
export function rolesText(roles: TStaffMember['roles'], lang: 'fr' | 'en'): string {
  return roles.map((r) => roleText(r, lang)).join(', ');
}

/** Select options of the hospital's active departments (a new role goes to one of them, or to none). */
export function useActiveDepartmentOptions() {
  const departments = useDepartments();
  return (departments.data?.results ?? [])
    .filter((d) => d.is_active !== false)
    .map((d) => ({ value: d.id, label: d.name }));
}
