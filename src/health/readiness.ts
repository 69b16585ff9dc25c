import { Injectable } from '@nestjs/common';

/** Whether this instance still wants traffic: it stops wanting it the moment a shutdown begins. */
@Injectable()
export class Readiness {
  private stopping = false;

  get isStopping(): boolean {
    return this.stopping;
  }

  stop(): void {
    this.stopping = true;
  }
}
