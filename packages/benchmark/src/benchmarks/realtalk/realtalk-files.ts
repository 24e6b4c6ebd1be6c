import type { PinnedFile } from '../../dataset/download-pinned-files.js';

/**
 * The REALTALK files lme downloads: the ten chats of danny911kr/REALTALK at a pinned commit, each
 * with its size and SHA-256 (hashed from a snapshot of that commit). The repository has no licence
 * file, so lme never ships them: `lme datasets download realtalk` fetches them for the user.
 */
export const REALTALK_REPOSITORY = 'danny911kr/REALTALK';
export const REALTALK_COMMIT = 'b903e06a9770bf4e5fe9018c3e132889666d3b4a';

export type RealtalkFile = PinnedFile;

/** In chat-number order; `path` is relative to the repository root. */
export const REALTALK_FILES: readonly RealtalkFile[] = [
  {
    path: 'data/Chat_1_Emi_Elise.json',
    bytes: 236990,
    sha256: '4e947998a751a1ba2c3710fc873b90fbcbc234fda7a5e4e75db2b762e0f25a36',
  },
  {
    path: 'data/Chat_2_Kevin_Elise.json',
    bytes: 228327,
    sha256: '4ac6e319c206731aa9a025c93325eb1edb43686cf39473f058c87ae7deb2d62a',
  },
  {
    path: 'data/Chat_3_Kevin_Paola.json',
    bytes: 231570,
    sha256: '10c9208016538cbe7a28aafa6cfd72587b072677964c36ec242159fdf58961f2',
  },
  {
    path: 'data/Chat_4_Emi_Paola.json',
    bytes: 232501,
    sha256: '80aa012ed6a918f5b317bd942b4d4811a158d27a6e07b7a5c6182994107a9367',
  },
  {
    path: 'data/Chat_5_Nicolas_Nebraas.json',
    bytes: 466832,
    sha256: '32dd7c45786b1a26861dc1574a1bb698a855196fd2ae3fc0c091f3c9ab2d6d06',
  },
  {
    path: 'data/Chat_6_Vanessa_Nicolas.json',
    bytes: 467008,
    sha256: '9d5ee072ab5a0667ef71d5644d7cd3a4c6777a1e6e2252bf306f310d982e40ac',
  },
  {
    path: 'data/Chat_7_Nebraas_Vanessa.json',
    bytes: 383849,
    sha256: 'b5716bb093217980e747dec0d98996829b569febc09587a025efc6b79806e9ce',
  },
  {
    path: 'data/Chat_8_Akib_Muhhamed.json',
    bytes: 364402,
    sha256: '814f64ad7e8a46f0398f550fe84184e2ba495a292290b9ff96ffc95448280800',
  },
  {
    path: 'data/Chat_9_Fahim_Akib.json',
    bytes: 400397,
    sha256: '05b9b4331bf0e25a2a64dc89c404622c83a61ab5e7c935fb7d844449caf6dd39',
  },
  {
    path: 'data/Chat_10_Fahim_Muhhamed.json',
    bytes: 283618,
    sha256: '26135a9e3482f40bea4c71de570a2d994a361848111067e60587be1dd82a0127',
  },
];

/** Questions in the ten chats (categories 1-3; none is 4 or 5). */
export const REALTALK_QUESTIONS = 728;

/** A chat file's name as the repository writes it: `Chat_<n>_<A>_<B>.json`. */
export const REALTALK_CHAT_NAME = /^Chat_(\d+)_.+\.json(\.gz)?$/;
