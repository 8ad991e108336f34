import { createTestContext, type TestContext } from '../../test/harness';
import { signIn, verifiedUser, xsrfAgent } from '../../test/auth-helpers';
import { noticeFor, untilListening } from '../../test/user-notices';
import * as users from './users.repository';

describe('profile and password change', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
    await untilListening(t);
  });
  afterAll(() => t.close());

  it('sends the profile with the exact balance', async () => {
    const { agent, user, email } = await verifiedUser(t, { balanceTokens: 12.3 });
    const res = await agent.get('/api/user/profile').expect(200);
    expect(res.body.status).toBe('OK');
    expect(res.body.payload).toEqual({
      id: user.id,
      name: 'Test',
      surname: 'User',
      email,
      phone: '+44 7911 123456',
      phoneE164: '+447911123456',
      balance: 12.3,
      avatarUrl: null,
      created_at: user.created_at.toISOString(),
      country: null,
      city: '',
      address: '',
      post_code: '',
      email_verified: true,
    });
  });

  it('drops the cached user on any users update: a balance change shows at once and a disabled account is signed out', async () => {
    const { agent, user } = await verifiedUser(t, { balanceTokens: 5 });
    expect((await agent.get('/api/user/profile').expect(200)).body.payload.balance).toBe(5);
    let notice = noticeFor(t, user.id);
    await t.ctx.db('users').where({ id: user.id }).update({ balance_tenths: 73 });
    await notice;
    expect((await agent.get('/api/user/profile').expect(200)).body.payload.balance).toBe(7.3);
    notice = noticeFor(t, user.id);
    await t.ctx.db('users').where({ id: user.id }).update({ disabled_at: t.ctx.db.fn.now() });
    await notice;
    await agent.get('/api/user/profile').expect(401);
  });

  it('updates the editable fields, with the country as {id, name, iso}, and ignores email, balance and role', async () => {
    const { agent, user, email } = await verifiedUser(t);
    const res = await agent
      .put('/api/user/profile')
      .send({
        name: ' Anna ',
        surname: 'Schmidt',
        phone: '+49 151 23456789',
        country_id: 276,
        city: 'Berlin',
        address: 'Hauptstr. 1',
        post_code: '10115',
        email: 'evil@example.test',
        balance: 5000,
        balance_tenths: 50000,
        role: 'admin',
      })
      .expect(200);
    expect(res.body.payload).toMatchObject({
      name: 'Anna',
      surname: 'Schmidt',
      phone: '+49 151 23456789',
      country: { id: 276, name: 'Germany', iso: 'DE' },
      city: 'Berlin',
      address: 'Hauptstr. 1',
      post_code: '10115',
      email,
      balance: 10,
    });
    const row = (await users.findById(t.ctx.db, user.id)) as users.UserRow;
    expect(row.role).toBe('customer');
    expect(row.phone_e164).toBe('+4915123456789');
    expect(Number(row.balance_tenths)).toBe(100);
    expect((await agent.get('/api/user/profile')).body.payload.country.iso).toBe('DE');
  });

  it('saves an unchanged profile whose phone was typed without its country code at registration', async () => {
    // the registration form sent the national number plus its E.164 reading with the chosen country
    const { agent, user } = await verifiedUser(t, { phone: '07911 123456', phoneE164: '+447911123456' });
    const profile = (await agent.get('/api/user/profile').expect(200)).body.payload;
    expect(profile).toMatchObject({ phone: '07911 123456', phoneE164: '+447911123456' });
    // saved as shown, without retyping the number
    const fields = {
      name: profile.name,
      surname: profile.surname,
      phone: profile.phone,
      city: '',
      address: '',
      post_code: '',
    };
    await agent.put('/api/user/profile').send(fields).expect(200);
    // a new national number with the client's reading of it (the phone input knows the country)
    await agent
      .put('/api/user/profile')
      .send({ ...fields, phone: '07400 123456', phoneE164: '+447400123456' })
      .expect(200);
    expect(((await users.findById(t.ctx.db, user.id)) as users.UserRow).phone_e164).toBe('+447400123456');
    const bad = await agent
      .put('/api/user/profile')
      .send({ ...fields, phone: '0123', phoneE164: '+4401' })
      .expect(422);
    expect(bad.body.errors.phone).toEqual(['Please enter a valid phone number']);
  });

  it('answers invalid profile input with a 422 field map', async () => {
    const { agent } = await verifiedUser(t);
    const res = await agent
      .put('/api/user/profile')
      .send({ name: '', surname: ' ', phone: '', country_id: 'x', city: 'c'.repeat(101) })
      .expect(422);
    expect(res.body.errors).toEqual({
      name: ['Name is required'],
      surname: ['Surname is required'],
      phone: ['Phone number is required'],
      country_id: ['The selected country is invalid.'],
      city: ['City may not be greater than 100 characters.'],
    });
    const phone = await agent.put('/api/user/profile').send({ name: 'A', surname: 'B', phone: '12' }).expect(422);
    expect(phone.body.errors).toEqual({ phone: ['Please enter a valid phone number'] });
    const country = await agent
      .put('/api/user/profile')
      .send({ name: 'A', surname: 'B', phone: '+33612345678', country_id: 999 })
      .expect(422);
    expect(country.body.errors).toEqual({ country_id: ['The selected country is invalid.'] });
  });

  it('keeps guests out of the profile and the password change', async () => {
    const guest = await xsrfAgent(t);
    const expected = { status: 'ERROR', code: 'unauthenticated', message: 'Unauthenticated.' };
    expect((await guest.get('/api/user/profile').expect(401)).body).toEqual(expected);
    expect((await guest.put('/api/user/profile').send({}).expect(401)).body).toEqual(expected);
    expect((await guest.post('/api/user/change-password').send({}).expect(401)).body).toEqual(expected);
  });

  it('changes the password, keeps this session, ends the others, and refuses a wrong current password', async () => {
    const { agent, email, password } = await verifiedUser(t);
    const other = await xsrfAgent(t);
    expect((await signIn(other, email, password)).status).toBe(200);

    const wrong = await agent
      .post('/api/user/change-password')
      .send({ current_password: 'Nope1234', password: 'Changed12', password_confirmation: 'Changed12' })
      .expect(422);
    expect(wrong.body.errors).toEqual({ current_password: ['The current password is incorrect.'] });
    const invalid = await agent
      .post('/api/user/change-password')
      .send({ current_password: '', password: 'weak', password_confirmation: '' })
      .expect(422);
    expect(invalid.body.errors).toEqual({
      current_password: ['Current password is required'],
      password: ['Password must be 6-12 characters long'],
      password_confirmation: ['Please confirm your password'],
    });

    const ok = await agent
      .post('/api/user/change-password')
      .send({ current_password: password, password: 'Changed12', password_confirmation: 'Changed12' })
      .expect(200);
    expect(ok.body).toEqual({ status: 'OK', message: 'Password updated successfully' });
    await agent.get('/api/user/profile').expect(200);
    await agent.put('/api/user/profile').send({ name: 'Still', surname: 'Here', phone: '+33612345678' }).expect(200);
    await other.get('/api/user/profile').expect(401);
    expect((await signIn(t.agent(), email, 'Changed12')).status).toBe(200);
  });
});
