/** Why the image selector is shown but cannot be used; null when it can. */
export type ImageLock = 'manual' | 'single' | 'no_permission' | null;

export interface DockerImageRules {
  /** [display name, image reference] in the egg's order */
  images: [string, string][];
  /** the current image is one of the egg's (an administrator may have set another by hand) */
  offered: boolean;
  selectable: boolean;
  lock: ImageLock;
}

/**
 * Spec 001 §5 "Docker image select": usable only when more than one image is offered and the
 * current one is among them; changing it also needs startup.docker-image. The administrator's own
 * image is the first reason given, then a single image, then the missing permission.
 */
export function dockerImageRules(
  dockerImages: Record<string, string>,
  current: string,
  mayChange: boolean,
): DockerImageRules {
  const images = Object.entries(dockerImages);
  const offered = images.some(([, image]) => image === current);
  const lock: ImageLock = !offered
    ? 'manual'
    : images.length < 2
      ? 'single'
      : !mayChange
        ? 'no_permission'
        : null;
  return { images, offered, selectable: lock === null, lock };
}

/** The display name of an image reference, or the reference itself when the egg does not name it. */
export function imageLabel(images: [string, string][], image: string): string {
  return images.find(([, value]) => value === image)?.[0] ?? image;
}
