import { HttpPeer, sendJson, type PeerHandler } from './http-peer.js';

/** Deterministic vectors of a text: the peer answers `dense` and `sparse` like the real service. */
export const peerDense = (text: string, dimension: number) =>
  Array.from({ length: dimension }, (_, i) => ((text.length + i) % 7) / 7);
export const peerSparse = (text: string) => ({ [String(text.length % 30522)]: 1, '101': 0.5 });

/** An embedding service as the endpoint provider calls it: POST /embed {texts} → {dense, sparse}. */
export const embedHandler =
  (dimension: number): PeerHandler =>
  (req, res) => {
    if (req.method !== 'POST' || req.path !== '/embed') return sendJson(res, 404, { detail: 'not found' });
    const { texts } = req.json() as { texts: string[] };
    sendJson(res, 200, {
      dense: texts.map((t) => peerDense(t, dimension)),
      sparse: texts.map(peerSparse),
    });
  };

export class EmbeddingPeer extends HttpPeer {
  constructor(dimension = 8) {
    super(embedHandler(dimension));
  }
}
