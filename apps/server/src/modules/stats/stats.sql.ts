// SQL outside a repository: the reporting's shared predicates (age groups, IDSR diseases), defined once.
/** SQL fragments shared by the reporting queries and the summaries' rebuild (decisions 0035, 0038). */
import { IDSR_DISEASES, type IdsrDisease } from '@greensen/shared/contracts/stats';
import { type SQL, sql } from 'drizzle-orm';

/** The age group (pyramid) of a birth date at an instant. */
export function ageGroupSql(birthDate: SQL, at: SQL): SQL {
  return sql`case
    when ${birthDate} is null then 'unknown'
    when ${birthDate} > (${at})::date - interval '1 year' then '0-11m'
    when ${birthDate} > (${at})::date - interval '5 years' then '1-4'
    when ${birthDate} > (${at})::date - interval '15 years' then '5-14'
    when ${birthDate} > (${at})::date - interval '25 years' then '15-24'
    when ${birthDate} > (${at})::date - interval '50 years' then '25-49'
    when ${birthDate} > (${at})::date - interval '65 years' then '50-64'
    else '65+' end`;
}

/** The IDSR form's age groups (under 1, 1–4, 5–14, 15 and over). */
export function idsrAgeGroupSql(birthDate: SQL, at: SQL): SQL {
  return sql`case
    when ${birthDate} is null then 'unknown'
    when ${birthDate} > (${at})::date - interval '1 year' then '0-11m'
    when ${birthDate} > (${at})::date - interval '5 years' then '1-4'
    when ${birthDate} > (${at})::date - interval '15 years' then '5-14'
    else '15+' end`;
}

/** The condition selecting one IDSR disease's diagnoses (alias dg: `icd_code`, `certainty`). */
export function diseaseCondition(key: IdsrDisease): SQL {
  const disease = IDSR_DISEASES.find((d) => d.key === key)!;
  const prefixes = disease.prefixes.map((prefix) => sql`dg.icd_code like ${`${prefix}%`}`);
  const certainty = disease.certainty ? sql` and dg.certainty = ${disease.certainty}` : sql``;
  return sql`(${sql.join(prefixes, sql` or `)})${certainty}`;
}
