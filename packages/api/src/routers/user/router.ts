import { router } from '../../trpc';
import { adminLogin } from './admin-login';
import { login } from './login';
import { logout } from './logout';
import { register } from './register';
import { resetPassword } from './reset-password';
import { sendRegisterCode, sendResetPasswordCode } from './send-code';
import { updatePassword } from './update-password';
import { userinfo } from './userinfo';

export const userRouter = router({
  userinfo,
  register,
  login,
  logout,
  updatePassword,
  sendRegisterCode,
  sendResetPasswordCode,
  resetPassword,
  adminLogin,
});
