// A local HTTP server that answers as Alipay's gateway documents: requests signed RSA2 with the app's private key
// (all parameters but `sign`, sorted, `k=v&…`), replies signed with Alipay's private key over the `…_response`
// JSON, page pay (GET gateway?method=alipay.trade.page.pay) whose "payment" posts the asynchronous notify to
// notify_url (signed over every field but sign and sign_type), and alipay.trade.query. Keys are made per test.
import { createSign, createVerify, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJson } from './local-geetest';

export interface TAlipayTrade {
  outTradeNo: string;
  totalAmount: string;
  notifyUrl: string;
  returnUrl: string;
  status: 'WAIT_BUYER_PAY' | 'TRADE_SUCCESS' | 'TRADE_CLOSED';
  tradeNo: string | null;
}

export interface TLocalAlipay {
  gateway: string;
  appId: string;
  /** For the server under test. */
  appPrivateKey: string;
  alipayPublicKey: string;
  trades: Map<string, TAlipayTrade>;
  /** Requests whose signature did not verify. */
  badSignatures: number;
  /** Sends notifies here instead of the notify_url (a server under test listening on a port it learnt late). */
  notifyTarget: string | null;
  /** The notify Alipay sends when a trade is paid, signed (or signed with another key, to forge). */
  notifyFor(trade: TAlipayTrade, overrides?: Record<string, string>, forge?: boolean): Record<string, string>;
  postNotify(url: string, form: Record<string, string>): Promise<Response>;
  close(): Promise<void>;
}

function keyPair() {
  return generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
}

function signContent(params: Record<string, string>, exclude: string[]): string {
  return Object.keys(params)
    .filter((key) => !exclude.includes(key) && params[key] !== '')
    .sort()
    .map((key) => `${key}=${params[key]}`)
    .join('&');
}

function rsa2(content: string, privateKey: string): string {
  return createSign('RSA-SHA256').update(content, 'utf8').sign(privateKey, 'base64');
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => resolve(body));
  });
}

/** Alipay's time format in China Standard Time. */
function cst(date = new Date()): string {
  const text = new Date(date.getTime() + 8 * 3_600_000).toISOString();
  return `${text.slice(0, 10)} ${text.slice(11, 19)}`;
}

export async function startLocalAlipay(): Promise<TLocalAlipay> {
  const app = keyPair();
  const alipay = keyPair();
  const forger = keyPair();
  const appId = `2021${randomBytes(6).toString('hex').replace(/\D/g, '7').slice(0, 12)}`;
  const trades = new Map<string, TAlipayTrade>();

  const local: TLocalAlipay = {
    gateway: '',
    appId,
    appPrivateKey: app.privateKey,
    alipayPublicKey: alipay.publicKey,
    trades,
    badSignatures: 0,
    notifyTarget: null,
    notifyFor(trade, overrides = {}, forge = false) {
      const form: Record<string, string> = {
        notify_time: cst(),
        notify_type: 'trade_status_sync',
        notify_id: randomBytes(16).toString('hex'),
        app_id: appId,
        charset: 'utf-8',
        version: '1.0',
        trade_no: trade.tradeNo ?? `2026${randomBytes(8).toString('hex')}`,
        out_trade_no: trade.outTradeNo,
        trade_status: 'TRADE_SUCCESS',
        total_amount: trade.totalAmount,
        receipt_amount: trade.totalAmount,
        gmt_payment: cst(),
        ...overrides,
      };
      form.sign_type = 'RSA2';
      form.sign = rsa2(
        signContent(form, ['sign', 'sign_type']),
        forge ? forger.privateKey : alipay.privateKey,
      );
      return form;
    },
    postNotify(url, form) {
      return fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
        body: new URLSearchParams(form).toString(),
      });
    },
    close: async () => {},
  };

  const verified = (params: Record<string, string>) => {
    const ok = createVerify('RSA-SHA256')
      .update(signContent(params, ['sign']), 'utf8')
      .verify(app.publicKey, params.sign ?? '', 'base64');
    if (!ok) local.badSignatures += 1;
    return ok;
  };

  const signedReply = (key: string, body: Record<string, unknown>) => {
    const json = JSON.stringify(body);
    return `{"${key}":${json},"sign":"${rsa2(json, alipay.privateKey)}"}`;
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname !== '/gateway.do') return sendJson(response, 404, {});
    const params: Record<string, string> = Object.fromEntries(url.searchParams);
    if (request.method === 'POST')
      Object.assign(params, Object.fromEntries(new URLSearchParams(await readBody(request))));
    const biz = JSON.parse(params.biz_content ?? '{}') as Record<string, string>;

    if (params.method === 'alipay.trade.page.pay' && request.method === 'GET') {
      if (!verified(params) || params.app_id !== appId)
        return sendJson(response, 400, { error: 'invalid-signature' });
      const trade: TAlipayTrade = {
        outTradeNo: biz.out_trade_no ?? '',
        totalAmount: biz.total_amount ?? '',
        notifyUrl: params.notify_url ?? '',
        returnUrl: params.return_url ?? '',
        status: 'TRADE_SUCCESS',
        tradeNo: `2026${Date.now()}${randomBytes(3).toString('hex')}`,
      };
      // Opening the page and paying are one step here: the buyer "pays", Alipay notifies, then returns the buyer.
      trades.set(trade.outTradeNo, trade);
      await local.postNotify(local.notifyTarget ?? trade.notifyUrl, local.notifyFor(trade));
      response.writeHead(302, { location: trade.returnUrl });
      return response.end();
    }

    response.setHeader('content-type', 'application/json;charset=utf-8');
    if (params.method === 'alipay.trade.query') {
      const key = 'alipay_trade_query_response';
      if (!verified(params)) {
        return response.end(
          signedReply(key, {
            code: '40002',
            msg: 'Invalid Arguments',
            sub_code: 'isv.invalid-signature',
            sub_msg: '验签出错',
          }),
        );
      }
      const trade = trades.get(biz.out_trade_no ?? '');
      if (!trade) {
        return response.end(
          signedReply(key, {
            code: '40004',
            msg: 'Business Failed',
            sub_code: 'ACQ.TRADE_NOT_EXIST',
            sub_msg: '交易不存在',
          }),
        );
      }
      return response.end(
        signedReply(key, {
          code: '10000',
          msg: 'Success',
          out_trade_no: trade.outTradeNo,
          trade_no: trade.tradeNo,
          trade_status: trade.status,
          total_amount: trade.totalAmount,
        }),
      );
    }
    response.end(
      JSON.stringify({
        error_response: { code: '40002', msg: 'Invalid Arguments', sub_code: 'isv.invalid-method' },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  local.gateway = `http://127.0.0.1:${(server.address() as AddressInfo).port}/gateway.do`;
  local.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return local;
}
