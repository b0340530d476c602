/**
 * The answers of a pure function for the last `size` distinct inputs it was asked about, so a hot
 * path that sees the same few inputs again and again (the agents of the real-time check, the
 * domains looked up) computes each once. Oldest first out: however many distinct inputs arrive,
 * at most `size` are kept.
 */
export class RecentAnswers<T> {
  private readonly answers = new Map<string, T>();
  private readonly size: number;

  constructor(size: number) {
    this.size = size;
  }

  get(input: string): T | undefined {
    return this.answers.get(input);
  }

  /** Remembers `answer` for `input` and returns it. */
  set(input: string, answer: T): T {
    if (this.answers.size >= this.size) this.answers.delete(this.answers.keys().next().value!);
    this.answers.set(input, answer);
    return answer;
  }
}
