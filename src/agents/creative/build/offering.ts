/** One of inline_offerings[] (core/offering.json, as far as copy is made of it). */
export interface Offering {
  name?: string;
  description?: string;
  tagline?: string;
  landing_url?: string;
  checkout_url?: string;
}
