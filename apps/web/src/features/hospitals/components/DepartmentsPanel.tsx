/**
 * The hospital's departments (issue 15): name, code, kind, head of department and whether active; an
 * administrator creates and edits them (a department with active wards cannot be deactivated: the server says
 * why). Departments are never deleted: later modules (pharmacy, billing) refer to them.
 */
import {
  DEPARTMENT_KINDS,
  type DepartmentKind,
  type TDepartmentCreate,
  ZDepartmentCreate,
  ZDepartmentUpdate,
} from '@greensen/shared/contracts/structure';
import { Badge, Button, Group, Select, SimpleGrid, Stack, Switch, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPencil, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../../lib/api-client';
import { type Department, useDepartments } from '../../../lib/clinical/api/list-departments';
import { useDoctors } from '../../../lib/clinical/api/list-doctors';
import { PagedQueryTable } from '../../../lib/clinical/components/PagedTable';
import { useServerFieldErrors } from '../../../lib/field-errors';
import { FormFooter, ModalForm } from '../../../lib/modal-form';
import { toast } from '../../../lib/toast';
import { validateWith } from '../../../lib/zod-form';
import { useCreateDepartment, useUpdateDepartment } from '../api/structure';

type DepartmentRow = Department;

interface DepartmentFormValues {
  name: string;
  code: string;
  kind: string;
  head: string | null;
  is_active: boolean;
  [key: string]: unknown;
}

function DepartmentFormModal({
  department,
  opened,
  onClose,
}: {
  department: DepartmentRow | null;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('structure');
  const form = useForm<DepartmentFormValues>({
    initialValues: {
      name: department?.name ?? '',
      code: department?.code ?? '',
      kind: department?.kind ?? 'clinical',
      head: department?.head?.id ?? null,
      is_active: department?.is_active ?? true,
    },
  });
  const applyServerErrors = useServerFieldErrors(form);
  const create = useCreateDepartment();
  const update = useUpdateDepartment();
  const doctors = useDoctors({ ordering: 'name', page: 1, pageSize: 100 });
  const [general, setGeneral] = useState<string | null>(null);

  async function submit() {
    setGeneral(null);
    const values = form.getValues();
    const body = {
      name: values.name,
      code: values.code,
      kind: values.kind as DepartmentKind,
      head: values.head,
      ...(department ? { is_active: values.is_active } : {}),
    };
    const valid = validateWith(department ? ZDepartmentUpdate : ZDepartmentCreate, body, form);
    if (!valid) return;
    try {
      if (department) await update.mutateAsync({ id: department.id, ...body });
      else await create.mutateAsync(body as TDepartmentCreate);
      toast({ kind: 'success', title: t(department ? 'departments.saved' : 'departments.created') });
      onClose();
    } catch (error) {
      const message = applyServerErrors(error);
      setGeneral(message ?? (isApiError(error) ? error.message : t('failed')));
    }
  }

  return (
    <ModalForm
      opened={opened}
      onClose={onClose}
      title={t(department ? 'departments.edit' : 'departments.new')}
      onSubmit={() => void submit()}
    >
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput label={t('departments.name')} withAsterisk {...form.getInputProps('name')} />
          <TextInput
            label={t('departments.code')}
            description={t('codeHint')}
            withAsterisk
            {...form.getInputProps('code')}
          />
        </SimpleGrid>
        <Select
          label={t('departments.kind')}
          data={DEPARTMENT_KINDS.map((value) => ({ value, label: t(`kinds.${value}`) }))}
          allowDeselect={false}
          {...form.getInputProps('kind')}
        />
        <Select
          label={t('departments.head')}
          placeholder={t('departments.noHead')}
          data={(doctors.data?.results ?? []).map((d) => ({ value: d.id, label: d.full_name }))}
          searchable
          clearable
          nothingFoundMessage={t('departments.noDoctor')}
          {...form.getInputProps('head')}
        />
        {department && (
          <Switch label={t('active')} {...form.getInputProps('is_active', { type: 'checkbox' })} />
        )}
        <FormFooter
          general={general}
          onCancel={onClose}
          submitLabel={t('save')}
          loading={create.isPending || update.isPending}
        />
      </Stack>
    </ModalForm>
  );
}

export function DepartmentsPanel({ canManage }: { canManage: boolean }) {
  const { t } = useTranslation('structure');
  const query = useDepartments();
  const [editing, setEditing] = useState<DepartmentRow | 'new' | null>(null);
  const page = {
    data: query.data,
    isFetching: query.isFetching,
    isError: query.isError,
    error: query.error,
    refetch: query.refetch,
  };
  return (
    <Stack gap="md" data-testid="departments-panel">
      {canManage && (
        <Group justify="flex-end">
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('departments.new')}
          </Button>
        </Group>
      )}
      <PagedQueryTable<DepartmentRow>
        query={page}
        pageSize={100}
        page={1}
        onPageChange={() => {}}
        noRecordsText={t('departments.empty')}
        idAccessor="id"
        columns={[
          {
            accessor: 'name',
            title: t('departments.name'),
            render: (d) => (
              <Stack gap={0}>
                <Text size="sm" fw={600}>
                  {d.name}
                </Text>
                <Text size="xs" c="dimmed" ff="monospace">
                  {d.code}
                </Text>
              </Stack>
            ),
          },
          {
            accessor: 'kind',
            title: t('departments.kind'),
            render: (d) => t(`kinds.${d.kind}`, { defaultValue: d.kind }),
          },
          {
            accessor: 'head',
            title: t('departments.head'),
            render: (d) => d.head?.full_name ?? <Text c="dimmed">—</Text>,
          },
          {
            accessor: 'is_active',
            title: t('status'),
            render: (d) => (
              <Badge color={d.is_active ? 'green' : 'gray'} variant="light">
                {t(d.is_active ? 'active' : 'inactive')}
              </Badge>
            ),
          },
          ...(canManage
            ? [
                {
                  accessor: 'actions',
                  title: '',
                  textAlign: 'right' as const,
                  render: (d: DepartmentRow) => (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      leftSection={<IconPencil size={12} />}
                      onClick={() => setEditing(d)}
                      aria-label={t('departments.editOne', { name: d.name })}
                    >
                      {t('edit')}
                    </Button>
                  ),
                },
              ]
            : []),
        ]}
      />
      {editing && (
        <DepartmentFormModal
          key={editing === 'new' ? 'new' : editing.id}
          department={editing === 'new' ? null : editing}
          opened
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
