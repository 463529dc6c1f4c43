/** The zero-latency OpenAI-compatible peer in its own process, so that it does not share the measured one's CPU. */
import { OpenAiPeer } from '../../test/peers/openai-peer.js';
import { modelReply } from '../../test/helpers/pipeline-factories.js';

const peer = await new OpenAiPeer((call) => modelReply(call)).start();
process.send?.({ baseUrl: peer.baseUrl });
process.on('disconnect', () => void peer.stop().then(() => process.exit(0)));
