import { adminRouter } from './routers/admin/router';
import { captchaRouter } from './routers/captcha/router';
import { payRouter } from './routers/pay/router';
import { roomRouter } from './routers/room/router';
import { serverRouter } from './routers/server/router';
import { userRouter } from './routers/user/router';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  user: userRouter,
  captcha: captchaRouter,
  room: roomRouter,
  server: serverRouter,
  pay: payRouter,
  admin: adminRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
