/** Public configuration from GET /api/config/ (environment, extra modules, maintenance flag, build id). */
import {
  type AppEnvironment,
  DEFAULT_ENVIRONMENT,
  isAppEnvironment,
  isModuleName,
  type ModuleName,
} from '@greensen/shared/domain/modules';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './api-client';

export interface AppConfig {
  environment: AppEnvironment;
  /** Modules the installation adds to the environment's set (EXTRA_MODULES, decision 0021). */
  extra_modules: ModuleName[];
  maintenance: boolean;
  version: string;
  build_id: string;
  languages: string[];
}

export const CONFIG_QUERY_KEY = ['config'] as const;

export async function fetchConfig(): Promise<AppConfig> {
  const body = await api.get<Partial<AppConfig>>('config/', { public: true });
  return {
    environment: isAppEnvironment(body?.environment) ? body.environment : DEFAULT_ENVIRONMENT,
    extra_modules: Array.isArray(body?.extra_modules) ? body.extra_modules.filter(isModuleName) : [],
    maintenance: body?.maintenance === true,
    version: typeof body?.version === 'string' ? body.version : '',
    build_id: typeof body?.build_id === 'string' ? body.build_id : '',
    languages: Array.isArray(body?.languages) ? body.languages : ['fr', 'en'],
  };
}

export function configQueryOptions(refetchInterval?: number | false) {
  return queryOptions({
    queryKey: CONFIG_QUERY_KEY,
    queryFn: fetchConfig,
    staleTime: 60_000,
    refetchInterval: refetchInterval ?? false,
  });
}

/** The config once loaded (the start-up gate guarantees it is loaded before routes render). */
export function useAppConfig(refetchInterval?: number | false): AppConfig | undefined {
  return useQuery(configQueryOptions(refetchInterval)).data;
}

export const MAINTENANCE_POLL_MS = 60_000;

/** The modules of this installation: the environment's set of the specification, and its extra modules. */
export interface ModuleScope {
  environment: AppEnvironment;
  extraModules: readonly ModuleName[];
}

/** The modules of the installation `config` describes (the specification's defaults until it is known). */
export function moduleScopeOf(config: AppConfig | undefined): ModuleScope {
  return {
    environment: config?.environment ?? DEFAULT_ENVIRONMENT,
    extraModules: config?.extra_modules ?? [],
  };
}

export function useModuleScope(): ModuleScope {
  return moduleScopeOf(useAppConfig());
}
