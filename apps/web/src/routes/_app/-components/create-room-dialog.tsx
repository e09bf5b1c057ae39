// The create-room dialog: name, remark, password, zone and image, the stream settings
// bounded by the caller's plan, keep-data and auto-close when the plan allows them, and the upgrade hint.
// Its default action creates the room and starts it, then takes the owner into it (the room page lets the owner
// straight in), so a new room is one step from use; "Create only" leaves it stopped on the dashboard. A start the
// room time or the servers refuse leaves the room created and says why in the dialog.
import { Trans, useLingui } from '@lingui/react/macro';
import { ROOM_NAME_MAX_LENGTH } from '@rooms/api/client';
import { Button } from '@rooms/ui/button';
import { Checkbox } from '@rooms/ui/checkbox';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@rooms/ui/dialog';
import { Input } from '@rooms/ui/input';
import { Label } from '@rooms/ui/label';
import { NativeSelect } from '@rooms/ui/native-select';
import { Spinner } from '@rooms/ui/spinner';
import { showToast } from '@rooms/ui/toaster';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { PlayIcon, SparklesIcon } from 'lucide-react';
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { formatMinutes } from '../../../lib/format';
import { describeError, translateServerText } from '../../../lib/messages';
import { toastError, toastSuccess } from '../../../lib/notify';
import {
  AUTO_CLOSE_MINUTES,
  bitrateOptions,
  connectionOptions,
  frameRateOptions,
  resolutionOptions,
} from '../../../lib/room/room-options';
import type { TCreateRoomInput } from '../../../lib/room/room-types';
import { trpc, trpcClient } from '../../../lib/trpc';
import { createRoomInput, EMPTY, nameIssue, type TForm } from './create-room-form';
import { NotStarted } from './create-room-not-started';
import { PublicRoomSwitch } from './public-room-switch';

function Field({ label, htmlFor, children }: { label: ReactNode; htmlFor: string; children: ReactNode }) {
  return (
    <div className="grid content-start gap-2">
      <Label htmlFor={htmlFor}>{label}</Label>
      {children}
    </div>
  );
}

export function CreateRoomDialog({
  open,
  onOpenChange,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { i18n, t } = useLingui();
  // Seeded zone and plan names in the page's language (administrators' own names as they wrote them).
  const zoneName = (region: { name: string }) => translateServerText(i18n, region.name);
  const id = useId();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<TForm>(EMPTY);
  const [submitted, setSubmitted] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const issue = nameIssue(form.name, submitted);
  // 'Please enter a room name' is for this try; a dialog opened again starts without it.
  useEffect(() => {
    if (!open) setSubmitted(false);
  }, [open]);
  const regions = useQuery({ ...trpc.room.getRoomRegion.queryOptions(), enabled: open });
  const images = useQuery({ ...trpc.room.getRoomImage.queryOptions(), enabled: open });
  const set =
    <K extends keyof TForm>(key: K) =>
    (value: TForm[K]) =>
      setForm((current) => ({ ...current, [key]: value }));

  useEffect(() => {
    if (regions.error)
      toastError(i18n, regions.error, {
        prefix: t`Failed to retrieve room Zones`,
        unreachable: t`Failed to retrieve room Zones`,
      });
  }, [regions.error, i18n, t]);
  useEffect(() => {
    if (images.error)
      toastError(i18n, images.error, {
        prefix: t`Failed to retrieve room images`,
        unreachable: t`Failed to retrieve room images`,
      });
  }, [images.error, i18n, t]);

  const context = regions.data ?? images.data;
  const plan = context?.plan;
  const planName = plan ? translateServerText(i18n, plan.name) : '';
  // The server's room defaults on this plan are the starting choice (720p at 30 fps and 3 Mbit/s where the plan
  // allows that much, not its maximum; room-settings.ts), as for a room created without them.
  useEffect(() => {
    if (!open || !context) return;
    setForm((current) =>
      current.resolution
        ? current
        : {
            ...current,
            resolution: `${context.defaults.width}x${context.defaults.height}`,
            maxFrameRate: String(context.defaults.maxFrameRate),
            videoBitrateKbps: String(context.defaults.videoBitrateKbps),
            maxConnections: String(context.defaults.maxConnections),
            keepData: context.defaults.keepData,
            autoClose: context.defaults.autoClose,
            autoCloseMinutes: String(context.defaults.autoCloseMinutes),
          },
    );
  }, [open, context]);

  // The dialog works with its defaults: the first zone the plan allows and the first image that needs nothing
  // more (a `url` image needs an address typed) are chosen until the person picks others.
  useEffect(() => {
    if (!open) return;
    const zone = regions.data?.regions.find((region) => region.allowed)?.code;
    const allowed = images.data?.images.filter((image) => image.allowed) ?? [];
    const image = (allowed.find((candidate) => candidate.kind !== 'url') ?? allowed[0])?.code;
    setForm((current) => ({
      ...current,
      region: current.region || (zone ?? ''),
      image: current.image || (image ?? ''),
    }));
  }, [open, regions.data, images.data]);

  const chosenImage = images.data?.images.find((image) => image.code === form.image);
  const navigate = useNavigate();
  /** Where a create-and-start is: creating, then starting (which takes a browser's start). */
  const [phase, setPhase] = useState<'creating' | 'starting'>('creating');
  /** A room created whose start was refused (no room time left, no server free): what the dialog says instead. */
  const [notStarted, setNotStarted] = useState<{ name: string; reason: string; code?: string } | null>(null);
  // The dialog closed while its room was starting: the room is still started, but nobody is taken anywhere.
  const openNow = useRef(open);
  openNow.current = open;
  useEffect(() => {
    if (open) setNotStarted(null);
  }, [open]);
  const create = useMutation({
    mutationFn: async ({ input, start }: { input: TCreateRoomInput; start: boolean }) => {
      setPhase('creating');
      const room = await trpcClient.room.createRoom.mutate(input);
      if (!start) return { room, started: false as const };
      setPhase('starting');
      try {
        await trpcClient.room.startRoom.mutate({ id: room.id });
        return { room, started: true as const };
      } catch (error) {
        return { room, started: false as const, startError: error };
      }
    },
    onSuccess: async ({ room, started, startError }) => {
      await queryClient.invalidateQueries({ queryKey: trpc.room.getRoomList.queryKey() });
      setForm(EMPTY);
      setSubmitted(false);
      if (startError !== undefined) {
        const described = describeError(i18n, startError);
        if (openNow.current)
          setNotStarted({ name: room.name, reason: described.text, code: described.appCode });
        else toastError(i18n, startError, { prefix: t`Room ${room.name} was created but could not start:` });
        return;
      }
      const wanted = openNow.current;
      onOpenChange(false);
      if (!started) toastSuccess(i18n, t`Room ${room.name} created`);
      else if (wanted) void navigate({ to: '/room/$id', params: { id: room.id } });
      else toastSuccess(i18n, t`Room ${room.name} is running`);
    },
    onError: (error) => {
      toastError(i18n, error, {
        prefix: t`Failed to create a room`,
        unreachable: t`Failed to create a room`,
      });
    },
  });

  const ruleText = t`The room name may only contain letters, digits, - and _ (Chinese, Japanese and Korean included)`;

  /** The form's own submit (Enter, the default button) creates and starts; "Create only" does not start. */
  function submit(event: FormEvent, start = true) {
    event.preventDefault();
    setSubmitted(true);
    const problem = nameIssue(form.name, true);
    if (problem) {
      nameInput.current?.focus();
      return showToast({
        severity: 'warn',
        summary: t`Warning`,
        detail: problem === 'empty' ? t`Please enter a room name` : ruleText,
      });
    }
    if (!form.region || !form.image) {
      return showToast({
        severity: 'warn',
        summary: t`Warning`,
        detail: t`An image and a zone must be chosen`,
      });
    }
    const input = createRoomInput(form, { plan, imageKind: chosenImage?.kind });
    create.mutate({ input, start });
  }

  const upgradeHint = context?.upgradeHint;
  const loading = regions.isPending || images.isPending;

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent closeLabel={t`Close`} data-testid="create-room-dialog" className="md:max-w-2xl">
        <DialogHeader>
          <DialogTitle>
            <Trans>Create a room</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>
              A room is a browser on our servers that everyone in it sees and takes turns to drive.
            </Trans>
          </DialogDescription>
        </DialogHeader>
        {notStarted ? (
          <NotStarted
            name={notStarted.name}
            reason={notStarted.reason}
            outOfTime={notStarted.code === 'QUOTA_EXHAUSTED'}
            onClose={() => onOpenChange(false)}
          />
        ) : loading ? (
          <div className="flex justify-center py-10">
            <Spinner />
          </div>
        ) : (
          <form className="grid gap-4" onSubmit={submit} noValidate>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={<Trans>Room name</Trans>} htmlFor={`${id}-name`}>
                <Input
                  ref={nameInput}
                  id={`${id}-name`}
                  value={form.name}
                  maxLength={ROOM_NAME_MAX_LENGTH}
                  autoComplete="off"
                  aria-invalid={issue ? true : undefined}
                  aria-describedby={
                    issue === 'empty' ? `${id}-name-error ${id}-name-hint` : `${id}-name-hint`
                  }
                  onChange={(event) => set('name')(event.target.value)}
                  data-testid="room-name"
                />
                {issue === 'empty' ? (
                  <p id={`${id}-name-error`} className="text-destructive text-xs">
                    {t`Please enter a room name`}
                  </p>
                ) : null}
                {/* The rule where the name is typed; a name against it turns the rule into the error. */}
                <p
                  id={`${id}-name-hint`}
                  className={issue === 'rule' ? 'text-destructive text-xs' : 'text-muted-foreground text-xs'}
                >
                  {issue === 'rule' ? (
                    ruleText
                  ) : (
                    <Trans>
                      Letters, digits, - and _ (Chinese, Japanese and Korean too), up to{' '}
                      {ROOM_NAME_MAX_LENGTH} characters.
                    </Trans>
                  )}
                </p>
              </Field>
              <Field label={<Trans>Room password (optional)</Trans>} htmlFor={`${id}-password`}>
                <Input
                  id={`${id}-password`}
                  value={form.password}
                  maxLength={32}
                  autoComplete="off"
                  onChange={(event) => set('password')(event.target.value)}
                  data-testid="room-password"
                />
              </Field>
            </div>
            <Field label={<Trans>Remark</Trans>} htmlFor={`${id}-remark`}>
              <Input
                id={`${id}-remark`}
                value={form.remark}
                maxLength={200}
                onChange={(event) => set('remark')(event.target.value)}
                data-testid="room-remark"
              />
            </Field>
            <div className="grid gap-4 sm:grid-cols-2">
              <Field label={<Trans>Zone</Trans>} htmlFor={`${id}-region`}>
                <NativeSelect
                  id={`${id}-region`}
                  value={form.region}
                  onChange={(event) => set('region')(event.target.value)}
                  data-testid="room-region"
                >
                  <option value="">{t`Choose a zone`}</option>
                  {regions.data?.regions.map((region) => (
                    <option key={region.code} value={region.code} disabled={!region.allowed}>
                      {region.allowed ? zoneName(region) : t`${zoneName(region)} (better plans)`}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
              <Field label={<Trans>Image</Trans>} htmlFor={`${id}-image`}>
                <NativeSelect
                  id={`${id}-image`}
                  value={form.image}
                  onChange={(event) => set('image')(event.target.value)}
                  data-testid="room-image"
                >
                  <option value="">{t`Choose an image`}</option>
                  {images.data?.images.map((image) => (
                    <option key={image.code} value={image.code} disabled={!image.allowed}>
                      {translateServerText(i18n, image.name)}
                    </option>
                  ))}
                </NativeSelect>
              </Field>
            </div>
            {chosenImage ? (
              <p className="-mt-2 text-muted-foreground text-xs">
                {translateServerText(i18n, chosenImage.description)}
              </p>
            ) : null}
            {chosenImage?.kind === 'url' ? (
              <Field label={<Trans>Start address</Trans>} htmlFor={`${id}-url`}>
                <Input
                  id={`${id}-url`}
                  type="url"
                  inputMode="url"
                  placeholder="https://"
                  value={form.startUrl}
                  maxLength={2048}
                  onChange={(event) => set('startUrl')(event.target.value)}
                  data-testid="room-start-url"
                />
              </Field>
            ) : null}
            {plan ? (
              <div className="grid grid-cols-2 gap-4 sm:grid-cols-4">
                <Field label={<Trans>Resolution</Trans>} htmlFor={`${id}-resolution`}>
                  <NativeSelect
                    id={`${id}-resolution`}
                    value={form.resolution}
                    onChange={(event) => set('resolution')(event.target.value)}
                    data-testid="room-resolution"
                  >
                    {resolutionOptions(plan).map(({ width, height }) => (
                      <option key={`${width}x${height}`} value={`${width}x${height}`}>
                        {width}×{height}
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
                <Field label={<Trans>Frame rate</Trans>} htmlFor={`${id}-fps`}>
                  <NativeSelect
                    id={`${id}-fps`}
                    value={form.maxFrameRate}
                    onChange={(event) => set('maxFrameRate')(event.target.value)}
                    data-testid="room-fps"
                  >
                    {frameRateOptions(plan).map((fps) => (
                      <option key={fps} value={fps}>
                        {fps} fps
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
                <Field label={<Trans>Video bitrate</Trans>} htmlFor={`${id}-bitrate`}>
                  <NativeSelect
                    id={`${id}-bitrate`}
                    value={form.videoBitrateKbps}
                    onChange={(event) => set('videoBitrateKbps')(event.target.value)}
                    data-testid="room-bitrate"
                  >
                    {bitrateOptions(plan).map((kbps) => (
                      <option key={kbps} value={kbps}>
                        {kbps} kbps
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
                <Field label={<Trans>Max connections</Trans>} htmlFor={`${id}-connections`}>
                  <NativeSelect
                    id={`${id}-connections`}
                    value={form.maxConnections}
                    onChange={(event) => set('maxConnections')(event.target.value)}
                    data-testid="room-connections"
                  >
                    {connectionOptions(plan).map((count) => (
                      <option key={count} value={count}>
                        {count}
                      </option>
                    ))}
                  </NativeSelect>
                </Field>
              </div>
            ) : null}
            <div className="grid gap-3">
              {plan?.persistentStorage ? (
                <Label className="font-normal">
                  <Checkbox
                    checked={form.keepData}
                    onCheckedChange={(checked) => set('keepData')(checked === true)}
                    data-testid="room-keep-data"
                  />
                  <Trans>Keep browser data (cookies, logins) between starts</Trans>
                </Label>
              ) : null}
              {plan?.canConfigureAutoClose ? (
                <div className="flex flex-wrap items-center gap-3">
                  <Label className="font-normal">
                    <Checkbox
                      checked={form.autoClose}
                      onCheckedChange={(checked) => set('autoClose')(checked === true)}
                      data-testid="room-auto-close"
                    />
                    <Trans>Close automatically when nobody is connected for</Trans>
                  </Label>
                  <NativeSelect
                    className="w-36"
                    aria-label={t`Auto-close time`}
                    value={form.autoCloseMinutes}
                    disabled={!form.autoClose}
                    onChange={(event) => set('autoCloseMinutes')(event.target.value)}
                  >
                    {AUTO_CLOSE_MINUTES.map((minutes) => (
                      <option key={minutes} value={minutes}>
                        {formatMinutes(i18n, minutes)}
                      </option>
                    ))}
                  </NativeSelect>
                </div>
              ) : (
                <p className="text-muted-foreground text-xs">
                  <Trans>The room closes by itself after 20 minutes without anyone connected.</Trans>
                </p>
              )}
              <PublicRoomSwitch
                checked={form.isPublic}
                onChange={(isPublic) => set('isPublic')(isPublic)}
                testId="room-public"
                hasPassword={form.password.trim() !== ''}
              />
            </div>
            {upgradeHint ? (
              <p
                className="flex flex-wrap items-center gap-2 rounded-md border border-dashed p-3 text-sm"
                data-testid="upgrade-hint"
              >
                <SparklesIcon className="size-4 text-vip" />
                <span>{translateServerText(i18n, upgradeHint)}</span>
                {plan ? (
                  <span className="text-muted-foreground">
                    <Trans>
                      Your plan: {planName}, {plan.roomCount} of {plan.maxRooms} rooms
                    </Trans>
                  </span>
                ) : null}
                <Link to="/planlist" className="text-primary underline-offset-4 hover:underline">
                  <Trans>See plans</Trans>
                </Link>
              </p>
            ) : null}
            <DialogFooter>
              <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
                <Trans>Cancel</Trans>
              </Button>
              <Button
                type="button"
                variant="secondary"
                disabled={create.isPending}
                onClick={(event) => submit(event, false)}
                data-testid="create-room-submit"
              >
                {create.isPending && !create.variables?.start ? <Spinner /> : null}
                <Trans>Create only</Trans>
              </Button>
              <Button type="submit" disabled={create.isPending} data-testid="create-room-start">
                {create.isPending && create.variables?.start ? <Spinner /> : <PlayIcon />}
                {create.isPending && create.variables?.start && phase === 'starting' ? (
                  <Trans>Starting the room…</Trans>
                ) : (
                  <Trans>Create and start</Trans>
                )}
              </Button>
            </DialogFooter>
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
