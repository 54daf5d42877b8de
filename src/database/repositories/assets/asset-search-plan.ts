/**
 * The index entries the walk may expect to read, per match that the other plan would read in
 * full and sort. An index entry costs a small fraction of a row read and sorted, so the walk
 * wins once matches are dense; matches clustered late in the order make it read more than
 * expected. 10 keeps the walk to the cases that are clearly dense.
 */
const WALK_STEPS_PER_MATCH = 10;

/**
 * Whether a search's page is better found by walking the sort's index and keeping the entries
 * that match, stopping once the page is full, than by reading every match and sorting them.
 * With `matches` of `assets` spread along the order, the walk reads about
 * (`skip` + `take`) x `assets` / `matches` index entries, and the other plan `matches` rows.
 * The walk wins when matches are many (a common term) and loses when they are few: it may then
 * read most of the index to fill a page.
 */
export function walksSortIndex(plan: {
  matches: number;
  assets: number;
  skip: number;
  take: number;
}): boolean {
  const { matches, assets, skip, take } = plan;
  if (matches === 0) return false;
  const expectedSteps = ((skip + take) * assets) / matches;
  return expectedSteps <= WALK_STEPS_PER_MATCH * matches;
}
