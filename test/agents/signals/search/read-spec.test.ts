import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { placesNamed, readSpec } from '../../../../src/agents/signals/search/read-spec.ts';

describe('readSpec: the structure of a signal_spec', () => {
  it('reads age ranges however they are written, and takes them out of the text', () => {
    assert.deepEqual(readSpec('women 25-34').ages, [25, 34]);
    assert.deepEqual(readSpec('adults aged 35 to 44').ages, [35, 44]);
    assert.deepEqual(readSpec('people 55+').ages, [55, 99]);
    assert.deepEqual(readSpec('over 65 and retired').ages, [65, 99]);
    assert.deepEqual(readSpec('adults under 35').ages, [18, 34]);
    assert.deepEqual(readSpec('professionals in their 30s').ages, [30, 39]);
    assert.deepEqual(readSpec('renters in their late twenties').ages, [26, 29], 'not widened by "twenties" too');
    assert.deepEqual(readSpec('millennials').ages, [28, 43]);
    assert.equal(readSpec('women 25-34 who run').text.includes('25'), false);
    assert.equal(readSpec('parents of children under 18').ages, undefined, 'a child’s age is no audience age');
  });

  it('reads gender only when the spec names one', () => {
    assert.equal(readSpec('moms who cook').gender, 'female');
    assert.equal(readSpec('Gen Z guys').gender, 'male');
    assert.equal(readSpec('men and women who golf').gender, undefined);
  });

  it('reads household income in thousands, with or without the word income', () => {
    assert.deepEqual(readSpec('HHI $150k+').income, [150, Infinity]);
    assert.deepEqual(readSpec('household income over $100,000').income, [100, Infinity]);
    assert.deepEqual(readSpec('earning $75k-$100k').income, [75, 100]);
    assert.deepEqual(readSpec('income under 50k').income, [0, 50]);
    assert.deepEqual(readSpec('affluent families').income, [150, Infinity]);
    assert.equal(readSpec('women 25-34 with household income').income, undefined, 'an age range is no income');
  });

  it('reads company size', () => {
    assert.deepEqual(readSpec('HR leaders at firms with 200 to 1000 staff').employees, [200, 1000]);
    assert.deepEqual(readSpec('startups with fewer than 10 people').employees, [1, 9]);
    assert.deepEqual(readSpec('companies with 5,000+ employees').employees, [5000, Infinity]);
    assert.equal(readSpec('companies with 5,000+ employees').b2b, true);
  });

  it('reads countries by name or capital code, not by adjectives or the pronoun us', () => {
    assert.deepEqual(readSpec('homeowners in Germany').countries, ['DE']);
    assert.deepEqual([...readSpec('new movers in the UK and US').countries].sort(), ['GB', 'US']);
    assert.deepEqual(readSpec('help us find runners').countries, []);
    assert.deepEqual(readSpec('Spanish-speaking households').countries, []);
    assert.deepEqual(readSpec('American football fans').countries, []);
  });

  it('says what kind of signal is asked for', () => {
    assert.equal(readSpec('shopping for a new SUV').inMarket, true);
    assert.equal(readSpec('recently engaged couples').lifeEvent, true);
    assert.equal(readSpec('recent visitors to Tokyo').visitors, true);
    assert.equal(readSpec('contextual: golf articles').contextual, true);
    assert.equal(readSpec('IT decision makers').b2b, true);
    assert.equal(readSpec('dog owners').inMarket, false);
  });
});

describe('placesNamed', () => {
  const places = new Set([
    'new york',
    'los angeles',
    'san francisco bay area',
    'houston',
    'dallas-fort worth',
    'mumbai',
  ]);
  it('finds the catalog’s places by name, alias and state', () => {
    assert.deepEqual(placesNamed('commuters in New York', places), ['new york']);
    assert.deepEqual(placesNamed('NYC foodies', places), ['new york']);
    assert.deepEqual(placesNamed('reach people in Bombay', places), ['mumbai']);
    assert.deepEqual(placesNamed('homeowners in Texas', places).sort(), ['dallas-fort worth', 'houston']);
    assert.deepEqual(placesNamed('surfers in LA', places), ['los angeles']);
    assert.deepEqual(placesNamed('la vie en rose', places), [], 'two-letter aliases only in capitals');
  });
});
