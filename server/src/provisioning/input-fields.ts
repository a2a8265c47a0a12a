import { emailField } from '@keycard/contract';
import { isDeliverableAddress } from '../mail/mail-request.ts';

/**
 * Field schemas of admin inputs. The shapes live in the contract (the admin HTTP API's wire format);
 * what needs the server's own knowledge, such as what the outbox can send to, is added here.
 */
export {
  accountIdField,
  clientIdField,
  displayNameField,
  emailField,
} from '@keycard/contract';

/** Shown when an address passes emailField but the outbox could not send to it (mail-request.ts). */
export const UNDELIVERABLE_MESSAGE =
  'must be an address mail can be sent to: at most 64 characters before the @, and none of , ; < > " ( ) \\';

/** An address the commands send mail to: an e-mail address the outbox accepts as one recipient. */
export const mailableEmailField = emailField.refine(isDeliverableAddress, UNDELIVERABLE_MESSAGE);
