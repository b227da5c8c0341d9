/** Keeps only the fields that are set, so a patch never writes `undefined` over a stored value. */
export const dropUndefined = <T extends object>(patch: T): { [K in keyof T]?: Exclude<T[K], undefined> } =>
  Object.fromEntries(Object.entries(patch).filter(([, value]) => value !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>
  }
