import type { RouteObject } from 'react-router';
import { EggConfigurationTab } from './EggConfigurationTab.tsx';
import { EggScriptTab } from './EggScriptTab.tsx';
import { EggVariablesTab } from './EggVariablesTab.tsx';
import { EggViewLayout } from './EggViewLayout.tsx';
import { NestViewPage } from './NestViewPage.tsx';

// Wire objects and routes for this area's tests.

export function wireNest(id: number, name: string, eggIds: number[] | null = []) {
  return {
    id,
    uuid: `nest-uuid-${id}`,
    author: 'support@talon.invalid',
    name,
    description: `${name} servers`,
    created_at: '2025-01-05T10:00:00+00:00',
    updated_at: '2025-01-05T10:00:00+00:00',
    ...(eggIds === null
      ? {}
      : {
          relationships: {
            eggs: {
              object: 'list',
              data: eggIds.map((e) => ({ object: 'egg', attributes: wireEgg(e, id, `Egg ${e}`) })),
            },
          },
        }),
  };
}

export function wireEgg(id: number, nest: number, name: string, servers = 0) {
  return {
    id,
    uuid: `egg-uuid-${id}`,
    name,
    nest,
    author: 'support@talon.invalid',
    description: `Runs ${name}`,
    docker_image: 'ghcr.io/pterodactyl/yolks:java_21',
    docker_images: {
      'Java 21': 'ghcr.io/pterodactyl/yolks:java_21',
      'Java 17': 'ghcr.io/pterodactyl/yolks:java_17',
    },
    config: {
      files: {
        'server.properties': {
          parser: 'properties',
          find: { 'server-port': '{{server.build.default.port}}' },
        },
      },
      startup: { done: ')! For help, type ' },
      stop: 'stop',
      logs: {},
      file_denylist: ['*.jar'],
      extends: null,
    },
    startup: 'java -Xmx{{SERVER_MEMORY}}M -jar {{SERVER_JARFILE}}',
    script: {
      privileged: true,
      install: '#!/bin/ash\necho installing\n',
      entry: 'ash',
      container: 'ghcr.io/pterodactyl/installers:alpine',
      extends: null,
    },
    created_at: '2025-01-05T10:00:00+00:00',
    updated_at: '2025-01-05T10:00:00+00:00',
    relationships: {
      servers: {
        object: 'list',
        data: Array.from({ length: servers }, (_, i) => ({ object: 'server', attributes: { id: i + 1 } })),
      },
    },
  };
}

export function wireVariable(id: number, name: string, env: string, rules = 'required|string|max:20') {
  return {
    id,
    egg_id: 7,
    name,
    description: `The ${name.toLowerCase()}`,
    env_variable: env,
    default_value: 'server.jar',
    user_viewable: true,
    user_editable: true,
    rules,
    created_at: '2025-01-05T10:00:00+00:00',
    updated_at: '2025-01-05T10:00:00+00:00',
  };
}

/** A 422 in the reference's format, one entry per [source_field, detail]. */
export function validation(...problems: [string, string][]) {
  return {
    status: 422,
    body: {
      errors: problems.map(([field, detail]) => ({
        code: 'ValidationException',
        status: '422',
        detail,
        meta: { source_field: field, rule: 'egg' },
      })),
    },
  };
}

export const NEST_ROUTES: RouteObject[] = [
  { path: '/admin/nests/view/:id', Component: NestViewPage },
  {
    path: '/admin/nests/egg/:id',
    Component: EggViewLayout,
    children: [
      { index: true, Component: EggConfigurationTab },
      { path: 'variables', Component: EggVariablesTab },
      { path: 'script', Component: EggScriptTab },
    ],
  },
];
