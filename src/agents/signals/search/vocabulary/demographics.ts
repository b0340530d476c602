/** Words that stand for who people are: a gender, an age range, an income range. */

/** Words that name a gender. */
export const genderWords: Readonly<Record<string, 'female' | 'male'>> = {
  women: 'female',
  woman: 'female',
  female: 'female',
  females: 'female',
  ladies: 'female',
  moms: 'female',
  mums: 'female',
  mothers: 'female',
  girls: 'female',
  men: 'male',
  man: 'male',
  male: 'male',
  males: 'male',
  guys: 'male',
  dads: 'male',
  fathers: 'male',
  boys: 'male',
};

/** A table of each word to its value, written as groups `[value, ...words]` in the order they are listed. */
function wordsFor<V>(...groups: ReadonlyArray<readonly [V, ...string[]]>): Readonly<Record<string, V>> {
  const table: Record<string, V> = {};
  for (const [value, ...words] of groups) for (const word of words) table[word] = value;
  return table;
}

/** Generations and life stages that stand for an age range. */
export const ageWords = wordsFor<readonly [number, number]>(
  [[18, 27], 'gen z', 'generation z', 'zoomers'],
  [[18, 29], 'young adults'],
  [[13, 19], 'teens'],
  [[28, 43], 'millennials', 'millennial', 'gen y'],
  [[44, 59], 'gen x', 'generation x'],
  [[40, 60], 'middle-aged', 'middle aged'],
  [[60, 80], 'boomers', 'baby boomers'],
  [[65, 99], 'seniors'],
  [[62, 99], 'retirees'],
  [[55, 99], 'older adults'],
  [[20, 29], 'twenties'],
  [[20, 24], 'early twenties'],
  [[24, 27], 'mid twenties'],
  [[26, 29], 'late twenties'],
  [[30, 39], 'thirties'],
  [[30, 34], 'early thirties'],
  [[34, 37], 'mid thirties'],
  [[36, 39], 'late thirties'],
  [[40, 49], 'forties'],
  [[40, 44], 'early forties'],
  [[46, 49], 'late forties'],
  [[50, 59], 'fifties'],
  [[60, 69], 'sixties'],
);

/** Words that stand for an income range (in the brief's currency, thousands). */
export const incomeWords = wordsFor<readonly [number, number]>(
  [[150, Infinity], 'affluent', 'wealthy', 'high income', 'high-income'],
  [[250, Infinity], 'high net worth', 'hnw'],
  [[150, Infinity], 'rich', 'upper income'],
  [[100, 250], 'mass affluent'],
  [[50, 150], 'middle income', 'middle class', 'middle-income'],
  [[0, 50], 'low income', 'low-income', 'lower income', 'budget conscious', 'budget-conscious'],
);
