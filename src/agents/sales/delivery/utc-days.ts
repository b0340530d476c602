const dayMs = 86_400_000;

export interface Day {
  /** YYYY-MM-DD, in UTC. */
  date: string;
  from: Date;
  to: Date;
}

/** The UTC days the span [from, to) touches, in order, each clipped to the span. */
export function utcDays(from: Date, to: Date): Day[] {
  const days: Day[] = [];
  for (let start = Math.floor(from.getTime() / dayMs) * dayMs; start < to.getTime(); start += dayMs) {
    days.push({
      date: new Date(start).toISOString().slice(0, 10),
      from: new Date(Math.max(start, from.getTime())),
      to: new Date(Math.min(start + dayMs, to.getTime())),
    });
  }
  return days;
}
