import { captchaRouter } from './routers/captcha/router';
import { userRouter } from './routers/user/router';
import { createCallerFactory, router } from './trpc';

export const appRouter = router({
  user: userRouter,
  captcha: captchaRouter,
});

export type AppRouter = typeof appRouter;

export const createCaller = createCallerFactory(appRouter);
