import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app.js';
import { type Actor, call, createPatient, journeyHospital } from '../../../test/journey.js';
import { recentAdmissionsQuery, SEARCH_COUNT_CAP, searchPatients } from './patients.repository.js';
import {
  classifySearch,
  editDistance,
  namePrefixes,
  oneEditVariants,
  spellingsNear,
} from './search-terms.js';

let ctx: TestContext;
let secretary: Actor;
let doctor: Actor;
let otherHospitalSecretary: Actor;
let hospitalCode: string;
let hospitalId: string;
let departmentId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const h = await journeyHospital(ctx, { code: 'HGG' });
  hospitalCode = h.hospital.code;
  hospitalId = h.hospital.id;
  departmentId = h.dep('URG').id;
  secretary = await h.as('SECRETARY');
  doctor = await h.as('DOCTOR');
  const other = await journeyHospital(ctx, { code: 'CDF' });
  otherHospitalSecretary = await other.as('SECRETARY');
});
afterAll(() => ctx.close());

const auditCount = async (action: string, userId: string) => {
  const res = await ctx.database.db.execute<{ n: number }>(
    sql`select count(*)::int as n from audit_events where action = ${action} and user_id = ${userId}`,
  );
  return Number(res.rows[0]!.n);
};

describe('patients', () => {
  it('registers patients with per-hospital sequential record numbers and writes an audit row', async () => {
    const before = await auditCount('patient.create', secretary.id);
    const a = await createPatient(ctx.app, secretary, {
      allergies: ['Pénicilline', 'pénicilline', 'Arachide'],
    });
    const b = await createPatient(ctx.app, secretary);
    expect(a.record_number).toMatch(new RegExp(`^${hospitalCode}-\\d{6}$`));
    expect(Number(b.record_number.slice(-6))).toBe(Number(a.record_number.slice(-6)) + 1);
    expect(a.allergies).toEqual(['pénicilline', 'Arachide']);
    const other = await createPatient(ctx.app, otherHospitalSecretary);
    expect(other.record_number).toBe('CDF-000001');
    expect(await auditCount('patient.create', secretary.id)).toBe(before + 2);
  });

  it('gives distinct record numbers to concurrent registrations', async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(ctx.app, secretary, 'POST', '/api/patients/', {
          first_name: `Concurrent${i}`,
          last_name: `Zzyzx${i}`,
          sex: 'M',
          birth_date: `2000-01-0${i + 1}`,
        }),
      ),
    );
    const numbers = results.map((r) => r.json().record_number as string);
    expect(results.every((r) => r.statusCode === 201)).toBe(true);
    expect(new Set(numbers).size).toBe(6);
  });

  it('stores an estimated birth date from an age', async () => {
    const p = await createPatient(ctx.app, secretary, { birth_date: null, estimated_age: 40 });
    expect(p.birth_date_estimated).toBe(true);
    expect(p.age).toBe(40);
    const res = await call(ctx.app, secretary, 'POST', '/api/patients/', {
      first_name: 'Sans',
      last_name: 'Date',
      sex: 'M',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().birth_date[0]).toContain('date de naissance');
  });

  it('warns about a probable duplicate and saves it only when confirmed', async () => {
    await createPatient(ctx.app, secretary, {
      first_name: 'Grâce',
      last_name: 'Mbuyi',
      birth_date: '1990-04-12',
      phone: '+243 81 234 5678',
    });
    const check = await call(ctx.app, secretary, 'POST', '/api/patients/check-duplicates/', {
      first_name: 'Grace',
      last_name: 'Mbouyi',
      birth_date: '1990-04-12',
    });
    expect(check.statusCode).toBe(200);
    expect(check.json().duplicates).toHaveLength(1);
    expect(check.json().duplicates[0].reasons).toEqual(expect.arrayContaining(['name', 'birth_date']));

    const body = {
      first_name: 'GRACE',
      last_name: 'mbuyi',
      sex: 'F',
      birth_date: '1985-01-01',
      phone: '+243812345678',
    };
    const refused = await call(ctx.app, secretary, 'POST', '/api/patients/', body);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().detail).toBeTruthy();
    expect(refused.json().duplicates[0].full_name).toBe('Grâce Mbuyi');
    const confirmed = await call(ctx.app, secretary, 'POST', '/api/patients/', {
      ...body,
      confirm_duplicate: true,
    });
    expect(confirmed.statusCode).toBe(201);
    // Same name, different birth date and phone: not a duplicate.
    const distinct = await call(ctx.app, secretary, 'POST', '/api/patients/check-duplicates/', {
      first_name: 'Grace',
      last_name: 'Mbuyi',
      birth_date: '1970-01-01',
    });
    expect(distinct.json().duplicates).toHaveLength(0);
  });

  it('searches by name without accents, case or small typos, by record number and phone, and audits it', async () => {
    const eloise = await createPatient(ctx.app, secretary, {
      first_name: 'Éloïse',
      last_name: 'Kabongo',
      phone: '0998 765 432',
      national_id: 'cd-778899',
    });
    const mbouyi = await createPatient(ctx.app, secretary, { first_name: 'Jean', last_name: 'Mbouyi' });
    const before = await auditCount('patient.search', doctor.id);
    const search = async (term: string) => {
      const res = await call(ctx.app, doctor, 'GET', `/api/patients/?search=${encodeURIComponent(term)}`);
      expect(res.statusCode).toBe(200);
      return res.json() as { count: number; results: { id: string }[] };
    };
    expect((await search('eloise')).results.map((r) => r.id)).toContain(eloise.id);
    expect((await search('ELOISE kabongo')).results[0]!.id).toBe(eloise.id);
    expect((await search('Mbuyi')).results.map((r) => r.id)).toContain(mbouyi.id);
    expect((await search(eloise.record_number.toLowerCase())).results.map((r) => r.id)).toEqual([eloise.id]);
    expect((await search('998765432')).results.map((r) => r.id)).toEqual([eloise.id]);
    expect((await search('CD-778899')).results.map((r) => r.id)).toEqual([eloise.id]);
    expect((await search('Tshisekedi')).count).toBe(0);
    expect(await auditCount('patient.search', doctor.id)).toBe(before + 7);
  });

  it('lists name prefixes in name order (last name first, then first name first), then one typo away', async () => {
    const mk = (first_name: string, last_name: string) =>
      createPatient(ctx.app, secretary, { first_name, last_name });
    const ruth = await mk('Ruth', 'Wabenzi');
    const aimee = await mk('Aimée', 'Wabenzi');
    const benoit = await mk('Benoît', 'Wabenzila');
    const firstNamed = await mk('Wabenzi', 'Kiala');
    const typo = await mk('Chloé', 'Wabenzy');
    const search = async (term: string, query = '') => {
      const res = await call(
        ctx.app,
        doctor,
        'GET',
        `/api/patients/?search=${encodeURIComponent(term)}${query}`,
      );
      expect(res.statusCode).toBe(200);
      return res.json() as { count: number; next: string | null; results: { id: string }[] };
    };
    const expected = [aimee.id, ruth.id, benoit.id, firstNamed.id, typo.id];
    const all = await search('wabenzi');
    expect(all.results.map((r) => r.id)).toEqual(expected);
    expect(all.count).toBe(5);
    // Pages follow the same order across the tiers, without repeating anyone.
    const paged: string[] = [];
    for (let page = 1; page <= 3; page += 1) {
      const body = await search('Wabenzi', `&page_size=2&page=${page}`);
      expect(body.count).toBe(5);
      expect(body.next === null).toBe(page === 3);
      paged.push(...body.results.map((r) => r.id));
    }
    expect(paged).toEqual(expected);
    expect((await search('Aimée Wabenzi')).results[0]!.id).toBe(aimee.id);
    expect((await search('wabenzi aimee')).results[0]!.id).toBe(aimee.id);
    // The typo of the record is found from the right spelling, and the other way round.
    const misspelt = await search('WABENZY');
    expect(misspelt.results[0]!.id).toBe(typo.id);
    expect(new Set(misspelt.results.map((r) => r.id))).toEqual(new Set(expected));
    expect((await search('Wabnezi')).results.map((r) => r.id)).toContain(ruth.id);
  });

  it('caps the count across tiers and pages across their boundary (one statement runs several tiers)', async () => {
    const { hospital } = await journeyHospital(ctx, { code: 'CAP' });
    // More "last first" matches than the count cap, and ten "first last" ones after them.
    await ctx.database.db.execute(sql`insert into patients (id, hospital_id, record_number, first_name, last_name, sex)
      select gen_random_uuid(), ${hospital.id}, 'CAP-' || lpad(i::text, 6, '0'), 'P' || lpad(i::text, 4, '0'), 'Capcap', 'F'
      from generate_series(0, ${SEARCH_COUNT_CAP - 1}) i`);
    await ctx.database.db.execute(sql`insert into patients (id, hospital_id, record_number, first_name, last_name, sex)
      select gen_random_uuid(), ${hospital.id}, 'CAP-9' || lpad(i::text, 5, '0'), 'Capcap', 'Zulu' || chr(65 + i), 'M'
      from generate_series(0, 9) i`);
    const search = (term: string, offset: number, limit = 20) =>
      ctx.database.db.transaction((tx) =>
        searchPatients(tx, hospital.id, { search: term, archived: false, limit, offset }),
      );
    const names = (rows: { first_name: string; last_name: string }[]) =>
      rows.map((r) => `${r.last_name} ${r.first_name}`);

    const first = await search('capcap', 0);
    expect(names(first.rows)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Capcap P${String(i).padStart(4, '0')}`),
    );
    expect(first).toMatchObject({ count: SEARCH_COUNT_CAP, capped: true });
    // The page that straddles the two tiers: the last ten "last first" names, then the first "first last" ones.
    const straddling = await search('Capcap', SEARCH_COUNT_CAP - 10);
    expect(names(straddling.rows)).toEqual([
      ...Array.from(
        { length: 10 },
        (_, i) => `Capcap P${String(SEARCH_COUNT_CAP - 10 + i).padStart(4, '0')}`,
      ),
      ...Array.from({ length: 10 }, (_, i) => `Zulu${String.fromCharCode(65 + i)} Capcap`),
    ]);
    expect(straddling).toMatchObject({ count: SEARCH_COUNT_CAP, capped: true });
    // Only the "first last" tier: an exact count.
    const zulu = await search('capcap zulu', 0, 4);
    expect(names(zulu.rows)).toEqual(['ZuluA Capcap', 'ZuluB Capcap', 'ZuluC Capcap', 'ZuluD Capcap']);
    expect(zulu).toMatchObject({ count: 10, capped: false });
    // One typo away (letters swapped), in either order of the names: the spelling that exists is used.
    expect(names((await search('Capcpa zuluh', 0)).rows)).toEqual(['ZuluH Capcap']);
    expect(names((await search('Zluuh Capcap', 0)).rows)).toEqual(['ZuluH Capcap']);
  });

  it('finds a name with a number by its whole text: unidentified patients ("Homme Inconnu 2")', async () => {
    const second = await createPatient(ctx.app, secretary, { first_name: 'Homme', last_name: 'Inconnu 2' });
    const twelfth = await createPatient(ctx.app, secretary, { first_name: 'Femme', last_name: 'Inconnu 12' });
    const ids = async (term: string) => {
      const res = await call(ctx.app, doctor, 'GET', `/api/patients/?search=${encodeURIComponent(term)}`);
      expect(res.statusCode).toBe(200);
      return (res.json() as { results: { id: string }[] }).results.map((r) => r.id);
    };
    for (const term of ['inconnu 2', 'Homme Inconnu 2', 'homme inconnu 2', 'inconnu2', 'INCONNU 2 homme']) {
      expect(await ids(term), term).toEqual([second.id]);
    }
    expect(new Set(await ids('Inconnu'))).toEqual(new Set([second.id, twelfth.id]));
    expect(await ids('inconnu 12')).toEqual([twelfth.id]);
    expect(await ids('inconnu 3')).toEqual([]);
    // A record number still finds its record alone, not the names that look like it.
    const byNumber = await call(ctx.app, doctor, 'GET', `/api/patients/?search=${second.record_number}`);
    expect(byNumber.json().results.map((r: { id: string }) => r.id)).toEqual([second.id]);
  });

  it('finds a name two typos away, or a word in the middle of a name, through the dictionary of name words', async () => {
    const celine = await createPatient(ctx.app, secretary, { first_name: 'Céline', last_name: 'Tshilombwe' });
    const marie = await createPatient(ctx.app, secretary, {
      first_name: 'Grâce Mariette',
      last_name: 'Nzuzi',
    });
    const search = async (term: string) => {
      const res = await call(ctx.app, doctor, 'GET', `/api/patients/?search=${encodeURIComponent(term)}`);
      expect(res.statusCode).toBe(200);
      return (res.json() as { results: { id: string }[] }).results.map((r) => r.id);
    };
    // Two typos in one word ("ch" for "sh", "n" for "m"), alone and with the first name.
    expect(await search('Tchilonbwe')).toEqual([celine.id]);
    expect(await search('Tchilonbwe Celine')).toEqual([celine.id]);
    expect(await search('Celine Tchilonbwe')).toEqual([celine.id]);
    // A second first name, and one typo in it.
    expect(await search('Mariette')).toEqual([marie.id]);
    expect(await search('Mariete')).toEqual([marie.id]);
    // Three typos is another name: nobody.
    expect(await search('Tchilonbvi')).toEqual([]);
    // A renamed patient is found by the new name at once (the dictionary follows the patients' trigger).
    await ctx.database.db.execute(sql`update patients set last_name = 'Kayembewa' where id = ${marie.id}`);
    expect(await search('Kaiembeva')).toEqual([marie.id]);
  });

  it('counts edits as a misspelling makes them, and keeps the dictionary words close enough', () => {
    expect(editDistance('tshilombo', 'tchilonbo', 3)).toBe(2);
    expect(editDistance('mbuyi', 'mbuiy', 3)).toBe(1); // two neighbours swapped: one edit
    expect(editDistance('kabongo', 'kabongo', 3)).toBe(0);
    expect(editDistance('mutombo', 'tshisekedi', 3)).toBe(3); // stops at the cap
    expect(spellingsNear('tchilonbo', ['tshilombo', 'mbombo', 'kalonji'])).toEqual(['tshilombo']);
    expect(spellingsNear('mbuyi', ['mbuyi', 'mbouyi', 'mbuji', 'kabila'])).toEqual([
      'mbuyi',
      'mbouyi',
      'mbuji',
    ]);
    // A short word allows one edit only.
    expect(spellingsNear('ilo', ['ilunga', 'ila', 'oli'])).toEqual(['ila']);
  });

  it('tells numbers from names and spells one-typo variants', () => {
    expect(classifySearch('HGG-000123').kinds).toEqual(['national_id', 'record_number', 'name']);
    expect(classifySearch('0998 765 432').kinds).toEqual(['national_id', 'phone']);
    expect(classifySearch('Éloïse Kabongo').kinds).toEqual(['name']);
    // Letters with digits are looked for as a name too (unidentified patients: "Inconnu 2").
    expect(classifySearch('inconnu 2').kinds).toEqual(['national_id', 'name']);
    expect(namePrefixes('inconnu2')).toEqual(['inconnu2', 'inconnu 2']);
    expect(namePrefixes('Homme Inconnu 2')).toEqual(['Homme Inconnu 2']);
    const variants = oneEditVariants('mbuyi');
    expect(variants).toEqual(expect.arrayContaining(['mbouyi', 'mbuy', 'bmuyi', 'mbuyyi', 'mbuii', 'nbuyi']));
    expect(variants).not.toContain('mbuyi');
    expect(new Set(variants).size).toBe(variants.length);
    // Likely misspellings only (a dozen or so per letter), not every letter of the alphabet.
    expect(variants).not.toContain('mbuzi');
    expect(variants.length).toBeLessThan(15 * 'mbuyi'.length);
  });

  it('paginates with count, next and previous', async () => {
    const res = await call(ctx.app, doctor, 'GET', '/api/patients/?page_size=2&page=2');
    const body = res.json();
    expect(body.results).toHaveLength(2);
    expect(body.count).toBeGreaterThan(4);
    expect(body.next).toContain('page=3');
    expect(body.previous).toContain('page=1');
    expect((await call(ctx.app, doctor, 'GET', '/api/patients/?page_size=101')).statusCode).toBe(400);
  });

  it('sends a page of the visits and their count, never the whole history (issue 16)', async () => {
    const p = await createPatient(ctx.app, secretary);
    // Seven past visits, one a day (the newest yesterday), with queue numbers no real day reaches.
    await ctx.database.db.execute(sql`insert into admissions (id, hospital_id, patient_id, department_id,
        admission_type, reason, status, queue_date, queue_number, admitted_at, closed_at)
      select gen_random_uuid(), ${hospitalId}, ${p.id}, ${departmentId}, 'outpatient', 'Visite ' || k,
        'completed', (now() - k * interval '1 day')::date, 90000 + k, now() - k * interval '1 day',
        now() - k * interval '1 day' + interval '1 hour'
      from generate_series(1, 7) k`);
    const detail = (await call(ctx.app, doctor, 'GET', `/api/patients/${p.id}/`)).json();
    expect(detail.admissions_count).toBe(7);
    expect(detail.admissions.map((a: { reason: string }) => a.reason)).toEqual([
      'Visite 1',
      'Visite 2',
      'Visite 3',
      'Visite 4',
      'Visite 5',
    ]);
    // The rest through the visits list, in the same order.
    const rest = (
      await call(
        ctx.app,
        doctor,
        'GET',
        `/api/admissions/?patient=${p.id}&ordering=-admitted_at&page=2&page_size=5`,
      )
    ).json();
    expect(rest.count).toBe(7);
    expect(rest.results.map((a: { reason: string }) => a.reason)).toEqual(['Visite 6', 'Visite 7']);
  });

  it('reads the latest visits from the first entries of the index, without sorting the history (issue 38)', async () => {
    const p = await createPatient(ctx.app, secretary);
    await ctx.database.db.execute(sql`insert into admissions (id, hospital_id, patient_id, department_id,
        admission_type, reason, status, queue_date, queue_number, admitted_at, closed_at)
      select gen_random_uuid(), ${hospitalId}, ${p.id}, ${departmentId}, 'outpatient', 'Suivi ' || k,
        'completed', (now() - k * interval '1 day')::date, 95000 + k, now() - k * interval '1 day',
        now() - k * interval '1 day' + interval '1 hour'
      from generate_series(1, 300) k`);
    await ctx.database.db.execute(sql`analyze admissions`);
    const res = await ctx.database.db.execute<{ 'QUERY PLAN': unknown }>(
      sql`explain (format json) ${recentAdmissionsQuery(hospitalId, p.id)}`,
    );
    const plan = JSON.stringify(res.rows[0]?.['QUERY PLAN']);
    expect(plan).toContain('"Index Name":"admissions_patient_idx"');
    expect(plan).not.toContain('"Node Type":"Sort"');
    expect(plan).not.toContain('"Node Type":"Incremental Sort"');
  });

  it('reads a record with an audit row; another hospital’s record is a 404', async () => {
    const p = await createPatient(ctx.app, secretary);
    const before = await auditCount('patient.read', doctor.id);
    const res = await call(ctx.app, doctor, 'GET', `/api/patients/${p.id}/`);
    expect(res.statusCode).toBe(200);
    expect(res.json().admissions).toEqual([]);
    expect(res.json().admissions_count).toBe(0);
    expect(await auditCount('patient.read', doctor.id)).toBe(before + 1);
    const foreign = await call(ctx.app, otherHospitalSecretary, 'GET', `/api/patients/${p.id}/`);
    const missing = await call(
      ctx.app,
      otherHospitalSecretary,
      'GET',
      '/api/patients/0190d5a4-0000-7000-8000-000000000000/',
    );
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
  });

  it('tells "allergies not asked" from "no known allergy", and a list implies they were asked', async () => {
    const notAsked = await createPatient(ctx.app, secretary);
    expect(notAsked).toMatchObject({ allergies: [], allergies_recorded: false });
    const noneKnown = await createPatient(ctx.app, secretary, { allergies_recorded: true });
    expect(noneKnown).toMatchObject({ allergies: [], allergies_recorded: true });
    const listed = await createPatient(ctx.app, secretary, {
      allergies: ['Latex'],
      allergies_recorded: false,
    });
    expect(listed).toMatchObject({ allergies: ['Latex'], allergies_recorded: true });
    // Asked later: the record says so; a list can never be "not asked".
    const asked = await call(ctx.app, secretary, 'PATCH', `/api/patients/${notAsked.id}/`, {
      allergies_recorded: true,
    });
    expect(asked.json()).toMatchObject({ allergies: [], allergies_recorded: true });
    const edited = await call(ctx.app, secretary, 'PATCH', `/api/patients/${noneKnown.id}/`, {
      allergies: ['Iode'],
      allergies_recorded: false,
    });
    expect(edited.json()).toMatchObject({ allergies: ['Iode'], allergies_recorded: true });
    // Lists and searches carry the flag too.
    const found = await call(ctx.app, doctor, 'GET', `/api/patients/?search=${notAsked.record_number}`);
    expect(found.json().results[0]).toMatchObject({ id: notAsked.id, allergies_recorded: true });
  });

  it('stores phone numbers normalised, on registration and on edit, the patient’s and the emergency contact’s (issue 37)', async () => {
    const p = await createPatient(ctx.app, secretary, {
      phone: ' +243 81-234.5670 ',
      emergency_contact_name: 'Jean Mbuyi',
      emergency_contact_phone: '0998 765 430',
    });
    expect(p).toMatchObject({ phone: '+243812345670', emergency_contact_phone: '0998765430' });
    const edited = await call(ctx.app, secretary, 'PATCH', `/api/patients/${p.id}/`, {
      phone: '081.555.00.01',
      emergency_contact_phone: '+243 99 876 5431',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ phone: '0815550001', emergency_contact_phone: '+243998765431' });
    const read = await call(ctx.app, secretary, 'GET', `/api/patients/${p.id}/`);
    expect(read.json()).toMatchObject({ phone: '0815550001', emergency_contact_phone: '+243998765431' });
    // Found by the digits as stored, whatever the spacing typed.
    const found = await call(ctx.app, secretary, 'GET', '/api/patients/?search=081%20555%2000%2001');
    expect(found.json().results.map((r: { id: string }) => r.id)).toContain(p.id);
  });

  it('edits and archives with a reason, never deletes; archived records leave the default list', async () => {
    const p = await createPatient(ctx.app, secretary, { last_name: 'Archivable' });
    const edited = await call(ctx.app, secretary, 'PATCH', `/api/patients/${p.id}/`, {
      allergies: ['Latex'],
    });
    expect(edited.json().allergies).toEqual(['Latex']);
    expect((await call(ctx.app, secretary, 'POST', `/api/patients/${p.id}/archive/`, {})).statusCode).toBe(
      400,
    );
    const archived = await call(ctx.app, secretary, 'POST', `/api/patients/${p.id}/archive/`, {
      reason: 'Doublon',
    });
    expect(archived.statusCode).toBe(200);
    expect(archived.json()).toMatchObject({ is_archived: true, archived_reason: 'Doublon' });
    const active = await call(ctx.app, secretary, 'GET', '/api/patients/?search=Archivable');
    expect(active.json().results.map((r: { id: string }) => r.id)).not.toContain(p.id);
    const arch = await call(ctx.app, secretary, 'GET', '/api/patients/?search=Archivable&archived=true');
    expect(arch.json().results.map((r: { id: string }) => r.id)).toContain(p.id);
    expect((await call(ctx.app, secretary, 'GET', `/api/patients/${p.id}/`)).statusCode).toBe(200);
  });
});
