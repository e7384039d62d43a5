/** The `protectedAttributes` option: attribute names whose value combinations form the groups, or null. */
export function protectedAttributesOption(description: string) {
  return {
    type: ['array', 'null'],
    items: { type: 'string' },
    minItems: 1,
    default: null,
    description,
  };
}

/** The `seed` option: a non-negative integer or a string, 0 by default. */
export function seedOption(description: string) {
  return {
    anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string' }],
    default: 0,
    description,
  };
}
