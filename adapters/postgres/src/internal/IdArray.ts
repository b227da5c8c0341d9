/**
 * Ids as one PostgreSQL array literal, for `= ANY(${idArray(ids)}::bigint[])`: one bound parameter
 * however many ids. Only for snowflakes (digits only, checked where they were decoded), which need
 * no quoting inside the literal.
 */
export const idArray = (ids: ReadonlyArray<string>): string => `{${ids.join(",")}}`
