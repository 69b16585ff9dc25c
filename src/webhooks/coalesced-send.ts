/**
 * Runs `send` whenever asked, never twice at once: the asks that come while one send is on its way are
 * answered together by the next one.
 */
export class CoalescedSend {
  private sending = false;
  private askedAgain = false;

  constructor(private readonly send: () => Promise<unknown>) {}

  ask(): void {
    if (this.sending) {
      this.askedAgain = true;
      return;
    }
    this.sending = true;
    void this.send()
      // The caller has a fallback for a lost send (the workers poll): a failure only ends this one.
      .catch(() => undefined)
      .finally(() => {
        this.sending = false;
        if (this.askedAgain) {
          this.askedAgain = false;
          this.ask();
        }
      });
  }
}
