import type { Db } from '../../db/database.js';
import type { MessageRow } from '../../db/schema.js';
import { GroupCommit } from '../../lib/group-commit.js';
import { searchRepository } from '../search/search.repository.js';
import { CheckedWriter, type MessageWriterParts, type OutgoingMessage } from './message-writer.js';

/**
 * MessageWriter on SQLite: each send is checked on its own, and the sends arriving together
 * share one transaction and one commit (GroupCommit).
 */
export class GroupCommitWriter extends CheckedWriter {
  private readonly commits: GroupCommit;

  constructor(db: Db, parts: MessageWriterParts) {
    super(db, parts);
    // The batch's messages get their search entries in one statement at its end (each
    // statement of a unit would otherwise write the previous message's entry out on its own).
    this.commits = new GroupCommit(db, async (trx, run) => {
      const after = await searchRepository.deferEntries(trx);
      const result = await run();
      await searchRepository.writeDeferredEntries(trx, after);
      return result;
    });
  }

  protected commit(out: OutgoingMessage): Promise<MessageRow> {
    return this.commits.run((trx) => this.write(trx, out));
  }
}
