import { useMutation } from '@tanstack/react-query';
import { setServerDockerImage, type StartupData } from '../../../api/startup.ts';
import { can } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { dockerImageRules, imageLabel } from './dockerImageRules.ts';

/**
 * The docker image choice of the current server, shared by the startup page and the console's Java
 * panel: the rules from the egg's images (none until the startup data has loaded) and the change
 * (PUT .../settings/docker-image), which updates the server's image once the panel accepted it.
 */
export function useDockerImageChoice(data: StartupData | undefined) {
  const server = useServerStore((s) => s.server)!;
  const permissions = useServerStore((s) => s.permissions);
  const patchServer = useServerStore((s) => s.patchServer);
  const rules = dockerImageRules(
    data?.dockerImages ?? {},
    server.dockerImage,
    can(permissions, 'startup.docker-image'),
  );
  const change = useMutation({
    mutationFn: (image: string) => setServerDockerImage(server.id, image),
    onSuccess: (_data, image) => patchServer({ dockerImage: image }),
  });
  return {
    ...rules,
    current: server.dockerImage,
    // Nothing to explain before the images are known.
    lock: data ? rules.lock : null,
    selectable: data !== undefined && rules.selectable,
    label: (image: string) => imageLabel(rules.images, image),
    change,
  };
}
