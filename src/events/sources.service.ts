import { Injectable } from '@nestjs/common';
import { InvalidInputError } from '../common/errors/invalid-input.error.js';
import { fieldProblem, textRule } from '../common/field-rules/field-rule.js';
import { FeedsRepository } from '../database/repositories/feeds.repository.js';
import { toFeedResponse, type FeedResponse } from './dto/feed-response.dto.js';
import type { UpdateFeedDto } from './dto/update-feed.dto.js';

const MAX_FEED_NAME = 100;

/** The feeds (`GET /api/sources`) and their expected cadence. */
@Injectable()
export class SourcesService {
  constructor(private readonly feeds: FeedsRepository) {}

  async list(): Promise<FeedResponse[]> {
    const now = new Date();
    return (await this.feeds.list()).map((feed) => toFeedResponse(feed, now));
  }

  /** Sets a feed's expectation; the feed as it is then (one no run named yet included). */
  async expect(name: string, dto: UpdateFeedDto): Promise<FeedResponse> {
    const problem = fieldProblem(textRule(1, MAX_FEED_NAME, { printable: true }), name);
    if (problem !== null) throw new InvalidInputError(`name ${problem}`);
    const now = new Date();
    await this.feeds.expect(name, dto.expectedEverySeconds, now);
    const [feed] = await this.feeds.list(name);
    return toFeedResponse(feed, now);
  }
}
